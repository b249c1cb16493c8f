#!/usr/bin/env bash
# Regenerates the AVIF, HEIC and JPEG XL test fixtures (Tests/{AVIF,HEIF,JXL}Tests/Fixtures) with Debian's encoders
# (avifenc, heif-enc, cjxl, plus a few lines of C over libheif for an irot/imir file heif-enc cannot write), and the
# reference pixels with Debian's decoders (avifdec, heif-convert, djxl), stored as raw RGBA8 (`NAME.rgba`, with
# `NAME.size` holding "W H"). Needs python3 with Pillow and numpy (Debian's python3-pil, python3-numpy).
# The committed files are what the tests read; CI never runs this script.
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
avif=Tests/AVIFTests/Fixtures heif=Tests/HEIFTests/Fixtures jxl=Tests/JXLTests/Fixtures
mkdir -p "$avif" "$heif" "$jxl"
icc=/usr/share/color/icc/colord/AdobeRGB1998.icc

# Sources: a textured gradient (RGB and RGBA), a 16-bit version, three animation frames, a larger photo-like image.
"$python" - "$work" "$icc" <<'EOF'
import sys, numpy as np
from PIL import Image
work, icc = sys.argv[1], sys.argv[2]
def gradient(w, h, seed):
    y, x = np.mgrid[0:h, 0:w]
    rng = np.random.default_rng(seed)
    r = (x * 255 // max(w - 1, 1)); g = (y * 255 // max(h - 1, 1)); b = ((x + y) * 4) % 256
    noise = rng.integers(-6, 7, size=(h, w))
    return np.clip(np.stack([r, g, b], -1) + noise[..., None], 0, 255).astype(np.uint8)
rgb = gradient(64, 48, 1)
Image.fromarray(rgb).save(f"{work}/rgb.png")
a = np.tile(np.linspace(0, 255, 64).astype(np.uint8), (48, 1)); a[:8, :8] = 0
Image.fromarray(np.dstack([rgb, a]), "RGBA").save(f"{work}/rgba.png")
wide = rgb.astype(np.uint16) * 257 + np.arange(64, dtype=np.uint16)[None, :, None] * 3
Image.fromarray(wide[..., 0]).save(f"{work}/gray16.png")  # Pillow 9 writes 16-bit gray only; cjxl takes it
# 16-bit RGB PNG by hand (Pillow 9 cannot write it): raw rows with filter 0.
import zlib, struct
def png16(path, pixels):
    h, w, _ = pixels.shape
    raw = b"".join(b"\0" + pixels[row].astype(">u2").tobytes() for row in range(h))
    def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png16(f"{work}/rgb16.png", wide)
for index, colour in enumerate([(230, 30, 30), (30, 200, 40), (40, 60, 220)]):
    frame = np.zeros((24, 32, 3), np.uint8) + np.array(colour, np.uint8)
    frame[4 + index * 4:12 + index * 4, 4:28] = 255
    Image.fromarray(frame).save(f"{work}/frame{index}.png")
frames = [Image.open(f"{work}/frame{i}.png").convert("RGB") for i in range(3)]
frames[0].save(f"{work}/anim.apng", save_all=True, append_images=frames[1:], duration=[100, 200, 300], loop=0)
Image.fromarray(gradient(256, 192, 2)).save(f"{work}/large.png")
Image.fromarray(rgb).save(f"{work}/rgb-icc.png", icc_profile=open(icc, "rb").read())
EOF

# AVIF (libavif 0.11.1 with aom 3.6): lossy, lossless, alpha, 10/12-bit, animation, irot+imir, ICC, clap+irot.
avifenc -j 1 -s 8 --min 20 --max 30 "$work/rgb.png" "$avif/still.avif" >/dev/null
avifenc -j 1 -s 8 -l "$work/rgb.png" "$avif/lossless.avif" >/dev/null
avifenc -j 1 -s 8 --min 20 --max 30 "$work/rgba.png" "$avif/alpha.avif" >/dev/null
avifenc -j 1 -s 8 -d 10 --min 10 --max 20 "$work/rgb16.png" "$avif/depth10.avif" >/dev/null
avifenc -j 1 -s 8 -d 12 --min 10 --max 20 "$work/rgb16.png" "$avif/depth12.avif" >/dev/null
avifenc -j 1 -s 8 --min 10 --max 20 --timescale 1000 --duration 100 "$work/frame0.png" --duration 200 \
    "$work/frame1.png" --duration 300 "$work/frame2.png" "$avif/anim.avif" >/dev/null
avifenc -j 1 -s 8 -l --irot 1 --imir 1 "$work/rgb.png" "$avif/rotated.avif" >/dev/null
avifenc -j 1 -s 8 --min 20 --max 30 --icc "$icc" "$work/rgb.png" "$avif/icc.avif" >/dev/null
avifenc -j 1 -s 8 -l --crop 8,4,40,32 --irot 3 "$work/rgb.png" "$avif/cropped.avif" >/dev/null

# HEIC (libheif 1.15.1 with x265): lossy, lossless 4:4:4, alpha, 10/12-bit, thumbnail, ICC, and irot/imir.
heif-enc -q 60 -o "$heif/still.heic" "$work/rgb.png" >/dev/null
heif-enc -L -p chroma=444 --matrix_coefficients=0 -o "$heif/lossless.heic" "$work/rgb.png" >/dev/null
heif-enc -q 60 -o "$heif/alpha.heic" "$work/rgba.png" >/dev/null
heif-enc -q 80 -b 10 -o "$heif/depth10.heic" "$work/rgb16.png" >/dev/null
heif-enc -q 80 -b 12 -o "$heif/depth12.heic" "$work/rgb16.png" >/dev/null
heif-enc -q 60 -t 96 -o "$heif/thumbnail.heic" "$work/large.png" >/dev/null
heif-enc -q 60 -o "$heif/icc.heic" "$work/rgb-icc.png" >/dev/null
cat >"$work/orient.c" <<'EOF'
#include <libheif/heif.h>
#include <string.h>
/* orient IN.heic OUT.heic N: re-encodes IN's primary image with irot/imir boxes for EXIF orientation N. */
int main(int argc, char** argv) {
    struct heif_context* in = heif_context_alloc();
    if (heif_context_read_from_file(in, argv[1], NULL).code) return 1;
    struct heif_image_handle* handle; struct heif_image* image;
    heif_context_get_primary_image_handle(in, &handle);
    if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL).code) return 2;
    struct heif_context* out = heif_context_alloc();
    struct heif_encoder* encoder;
    heif_context_get_encoder_for_format(out, heif_compression_HEVC, &encoder);
    heif_encoder_set_lossy_quality(encoder, 60);
    struct heif_encoding_options* options = heif_encoding_options_alloc();
    options->image_orientation = (enum heif_orientation)(argv[3][0] - '0');
    if (heif_context_encode_image(out, image, encoder, options, NULL).code) return 3;
    return heif_context_write_to_file(out, argv[2]).code ? 4 : 0;
}
EOF
cc -o "$work/orient" "$work/orient.c" $(pkg-config --cflags --libs libheif)
"$work/orient" "$heif/still.heic" "$heif/rotated.heic" 5

# JPEG XL (libjxl 0.7.0): lossless, lossy, alpha, 16-bit, animation, ICC.
cjxl -d 0 -e 7 "$work/rgb.png" "$jxl/lossless.jxl" >/dev/null 2>&1
cjxl -d 1.5 -e 7 "$work/rgb.png" "$jxl/lossy.jxl" >/dev/null 2>&1
cjxl -d 0 -e 7 "$work/rgba.png" "$jxl/alpha.jxl" >/dev/null 2>&1
cjxl -d 0 -e 7 "$work/rgb16.png" "$jxl/depth16.jxl" >/dev/null 2>&1
cjxl -d 0 -e 7 "$work/anim.apng" "$jxl/anim.jxl" >/dev/null 2>&1
cjxl -d 0 -e 7 "$work/rgb-icc.png" "$jxl/icc.jxl" >/dev/null 2>&1
cjxl -d 0 -e 7 --container=1 "$work/rgb.png" "$jxl/container.jxl" >/dev/null 2>&1

# Reference pixels from the Debian decoders, as raw RGBA8.
reference() {  # reference DECODED.png OUT-PREFIX
    "$python" - "$1" "$2" <<'EOF'
import sys
from PIL import Image
image = Image.open(sys.argv[1]); image.load()
if image.mode == "I;16" or image.mode == "I":
    import numpy as np
    gray = (np.asarray(image, dtype=np.uint32) >> 8).astype(np.uint8)  # the high byte, as libpng's strip_16
    image = Image.fromarray(gray, "L")
rgba = image.convert("RGBA")
open(sys.argv[2] + ".rgba", "wb").write(rgba.tobytes())
open(sys.argv[2] + ".size", "w").write(f"{rgba.width} {rgba.height}\n")
EOF
}
for file in "$avif"/*.avif; do
    avifdec -j 1 -d 8 "$file" "$work/out.png" >/dev/null && reference "$work/out.png" "${file%.avif}.avifdec"
    heif-convert "$file" "$work/out.png" >/dev/null && reference "$work/out.png" "${file%.avif}.libheif"
done
for file in "$heif"/*.heic; do
    heif-convert "$file" "$work/out.png" >/dev/null && reference "$work/out.png" "${file%.heic}.libheif"
done
for file in "$jxl"/*.jxl; do
    djxl "$file" "$work/out.png" >/dev/null 2>&1 && reference "$work/out.png" "${file%.jxl}.djxl"
done
# djxl writes the 16-bit file as a 16-bit PNG, which Pillow 9 misreads: take its PPM and round v/257 to 8 bits
# (what libjxl's 8-bit output does).
djxl "$jxl/depth16.jxl" "$work/out.ppm" >/dev/null 2>&1
"$python" - "$work/out.ppm" "$jxl/depth16.djxl" <<'EOF'
import sys, numpy as np
data = open(sys.argv[1], "rb").read()
w, h = 64, 48
rgb = np.round(np.frombuffer(data[-w * h * 6:], ">u2").reshape(h, w, 3) / 257).astype(np.uint8)
rgba = np.dstack([rgb, np.full((h, w), 255, np.uint8)])
open(sys.argv[2] + ".rgba", "wb").write(rgba.tobytes())
open(sys.argv[2] + ".size", "w").write(f"{w} {h}\n")
EOF
reference "$work/rgb.png" "$avif/source-rgb"
reference "$work/rgba.png" "$avif/source-rgba"
for dir in "$heif" "$jxl"; do cp "$avif/source-rgb".* "$avif/source-rgba".* "$dir/"; done
ls -la "$avif" "$heif" "$jxl"
