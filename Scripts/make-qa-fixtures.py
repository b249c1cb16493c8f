#!/usr/bin/env python3
"""Hostile fixtures for the QA tests (Docs: /work/notes/qa.md).

many-samples.avif: a two-frame 16x16 sequence made by `avifenc -s 10 f1.png f2.png seq.avif` (two solid
PNGs), its alpha track dropped, and the colour track's sample table rewritten to declare CHUNKS x PER_CHUNK
one-byte samples, every chunk at the same offset (so the file stays small while libavif's parse must build an
entry for each sample). Usage: make-qa-fixtures.py seq.avif CHUNKS PER_CHUNK OUT (the fixture: 100 100).

Also made by hand (no script needed): Tests/HEIFTests/Fixtures/lying-size.heic and
Tests/AVIFTests/Fixtures/lying-size.avif are `heif-enc -q 50` and `avifenc -s 10` of a solid 1200x1000 PNG with
their only `ispe` rewritten to 64x48; Tests/JXLTests/Fixtures/many-frames.jxl is `cjxl -e 1`
of a 20-frame 200x200 APNG (Pillow, one pixel different in each frame, 40 ms each).
"""
import struct
import sys

CONTAINERS = (b'moov', b'trak', b'mdia', b'minf', b'stbl')


def parse(data):
    boxes, offset = [], 0
    while offset < len(data):
        size, kind = struct.unpack('>I4s', data[offset:offset + 8])
        payload = data[offset + 8:offset + size]
        boxes.append([kind, parse(payload) if kind in CONTAINERS else payload])
        offset += size
    return boxes


def build(boxes):
    out = b''
    for kind, payload in boxes:
        body = build(payload) if kind in CONTAINERS else payload
        out += struct.pack('>I4s', 8 + len(body), kind) + body
    return out


def main():
    source, chunks, per_chunk, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    data = open(source, 'rb').read()
    top = parse(data)
    moov = next(b for b in top if b[0] == b'moov')
    first_track = next(b for b in moov[1] if b[0] == b'trak')
    moov[1] = [b for b in moov[1] if b[0] != b'trak' or b is first_track]
    count = chunks * per_chunk
    colour_offset = None

    def rewrite(boxes):
        nonlocal colour_offset
        for box in boxes:
            kind, payload = box
            if kind in CONTAINERS:
                rewrite(payload)
            elif kind == b'stco':
                colour_offset = struct.unpack('>I', payload[8:12])[0]
                box[1] = struct.pack('>II', 0, chunks) + struct.pack('>I', colour_offset) * chunks
            elif kind == b'stsc':
                box[1] = struct.pack('>IIIII', 0, 1, 1, per_chunk, 1)
            elif kind == b'stsz':
                box[1] = struct.pack('>III', 0, 1, count)
            elif kind == b'stts':
                box[1] = struct.pack('>IIII', 0, 1, count, 1)

    rewrite([moov])
    # The moov box moves to the end (a free box of its old size keeps every absolute offset valid).
    original_moov = len(build([next(b for b in parse(data) if b[0] == b'moov')]))
    kept = [b for b in top if b[0] != b'moov']
    mdat_index = next(i for i, b in enumerate(kept) if b[0] == b'mdat')
    kept.insert(mdat_index, [b'free', bytes(original_moov - 8)])
    open(out, 'wb').write(build(kept) + build([moov]))


main()
