#!/usr/bin/env bash
# Regenerates the sample images in Docs/samples/ (used by the README's quick start and Docs/CLI.md).
# Pictures are drawn by a small Python program (PNG and GIF written by hand: no imaging package needed), then
# converted by `imago convert` itself, so the JPEG and WebP samples come from our own encoders.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Docs/samples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build --product imago >/dev/null
imago=.build/debug/imago

python3 - "$work" <<'PY'
import math, struct, sys, zlib

work = sys.argv[1]

def png(path, width, height, pixels):
    """pixels: list of rows of (r, g, b, a)."""
    raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in pixels)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def mix(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))

def landscape(width=160, height=100):
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            sky = mix((255, 120, 60), (40, 30, 110), y / height)
            sun = math.hypot(x - width * 0.62, y - height * 0.52) < height * 0.2
            color = (255, 225, 120) if sun else sky
            ridge = height * (0.62 + 0.12 * math.sin(x / 13.0) + 0.05 * math.sin(x / 5.0))
            if y > ridge:
                color = mix((60, 40, 80), (20, 15, 35), (y - ridge) / max(1, height - ridge))
            # Rounded corners through alpha, so transparency shows in `imago show`.
            cx, cy, r = min(x, width - 1 - x), min(y, height - 1 - y), 12
            alpha = 255
            if cx < r and cy < r:
                d = math.hypot(r - cx - 0.5, r - cy - 0.5)
                alpha = int(max(0, min(1, r - d)) * 255)
            row.append(color + (alpha,))
        rows.append(row)
    return rows

def portrait(width=72, height=108):
    """An upright scene: a tree under a sky, so a wrong orientation is obvious."""
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            color = mix((120, 190, 250), (210, 235, 255), y / height)
            if y > height * 0.8:
                color = (70, 150, 60)
            if abs(x - width / 2) < 4 and height * 0.55 < y <= height * 0.8:
                color = (110, 70, 40)
            if math.hypot(x - width / 2, y - height * 0.4) < width * 0.3:
                color = (40, 130, 50)
            row.append(color + (255,))
        rows.append(row)
    return rows

png(f"{work}/imago.png", 160, 100, landscape())
up = portrait()
# Stored turned a quarter to the left (as a camera held sideways writes it); EXIF orientation 6 turns it back.
w, h = len(up[0]), len(up)
stored = [[up[y][w - 1 - x] for y in range(h)] for x in range(w)]
png(f"{work}/photo-stored.png", h, w, stored)

def gif(path, width, height, frames, delay_cs, palette):
    """An animated GIF, LZW written with a clear code every 250 codes so codes stay 9 bits wide."""
    def lzw(indices):
        codes, bits, nbits, out = [], 0, 0, bytearray()
        for i, index in enumerate(indices):
            if i % 250 == 0:
                codes.append(256)
            codes.append(index)
        codes.append(257)
        for code in codes:
            bits |= code << nbits
            nbits += 9
            while nbits >= 8:
                out.append(bits & 0xFF)
                bits >>= 8
                nbits -= 8
        if nbits:
            out.append(bits & 0xFF)
        return bytes(out)
    data = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0))
    data += bytes(c for rgb in palette for c in rgb) + bytes(3 * (256 - len(palette)))
    data += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00"
    for frame in frames:
        data += b"\x21\xF9\x04\x04" + struct.pack("<H", delay_cs) + b"\x00\x00"
        data += b"\x2C" + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x08"
        stream = lzw(frame)
        for i in range(0, len(stream), 255):
            block = stream[i:i + 255]
            data += bytes([len(block)]) + block
        data += b"\x00"
    data += b"\x3B"
    open(path, "wb").write(bytes(data))

size, count = 48, 8
palette = [(24, 24, 32)] + [mix((80, 200, 255), (255, 80, 160), i / 7) for i in range(8)]
frames = []
for f in range(count):
    pixels = []
    for y in range(size):
        for x in range(size):
            angle = (math.degrees(math.atan2(y - size / 2 + 0.5, x - size / 2 + 0.5)) + 360) % 360
            radius = math.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5)
            segment = int(angle // 45)
            pixels.append(1 + (segment - f) % 8 if 10 <= radius <= 21 else 0)
    frames.append(pixels)
gif(f"{work}/spinner.gif", size, size, frames, 8, palette)
PY

cp "$work/imago.png" "$out/imago.png"
cp "$work/spinner.gif" "$out/spinner.gif"
"$imago" convert "$work/imago.png" -o "$out/landscape.webp" --quality 80
"$imago" convert "$work/spinner.gif" -o "$out/spinner.webp" --all-frames --lossless
"$imago" convert "$work/photo-stored.png" -o "$work/photo.jpg" --quality 85

# Add an APP1 EXIF segment with orientation 6 right after the JPEG's SOI marker.
python3 - "$work/photo.jpg" "$out/photo.jpg" <<'PY'
import struct, sys
jpeg = open(sys.argv[1], "rb").read()
tiff = b"II*\x00\x08\x00\x00\x00" + b"\x01\x00" + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0) + b"\x00\x00\x00\x00"
payload = b"Exif\x00\x00" + tiff
open(sys.argv[2], "wb").write(jpeg[:2] + b"\xFF\xE1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
PY

"$imago" info "$out"/*
