#!/usr/bin/env python3
"""Generates the ICC fixtures of the AVIF, HEIC and JPEG XL tests (committed; rerun only to change them).

Files tagged with colord's Adobe RGB (1998) profile, written by Debian's encoders (avifenc, heif-enc, cjxl), each
with its sRGB reference `NAME.srgb.rgba` / `.size`: Pillow's ImageCms.profileToProfile (perceptual, lcms2) of
  - the source pixels, for lossless AVIF and JPEG XL (their pixels are the source's exactly), and
  - the reference decoder's stored pixels (avifdec, heif-convert, djxl) for lossy files and for "lossless" HEIC
    (within 1 of its source, which the conversion amplifies near the gamut's edge): the decoder is the same library,
    so this isolates the colour conversion from the codec's loss.
The `icc.avif`, `icc.heic` and `icc.jxl` files of Scripts/make-new-format-fixtures.sh get references too. Two files
carry a malformed profile (the header of a real one, its tag table pointing past the end, as make_icc_fixtures.py
makes them): AVIF and HEIC store the bytes as given; cjxl refuses such a profile, so there is no JPEG XL one.
Needs python3-pil, python3-numpy, colord-data, icc-profiles-free, libavif-bin, libheif-examples, libjxl-tools.
Usage: /usr/bin/python3 Scripts/make_new_format_icc_fixtures.py
"""
import io
import os
import struct
import subprocess
import tempfile

import numpy as np
from PIL import Image, ImageCms

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests")
AVIF, HEIF, JXL = (os.path.join(ROOT, f"{name}Tests", "Fixtures") for name in ("AVIF", "HEIF", "JXL"))
ADOBE = "/usr/share/color/icc/colord/AdobeRGB1998.icc"  # colord-data, 18.6 KB
SMALL = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"  # icc-profiles-free, 580 bytes (malformed ones)
SRGB = ImageCms.createProfile("sRGB")


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def source(path):
    """The 64x48 gradient of make-new-format-fixtures.sh: full red and green ramps, so Adobe RGB moves them."""
    h, w = 48, 64
    y, x = np.mgrid[0:h, 0:w]
    rng = np.random.default_rng(1)
    r = x * 255 // (w - 1)
    g = y * 255 // (h - 1)
    b = ((x + y) * 4) % 256
    noise = rng.integers(-6, 7, size=(h, w))
    rgb = np.clip(np.stack([r, g, b], -1) + noise[..., None], 0, 255).astype(np.uint8)
    Image.fromarray(rgb).save(path, icc_profile=open(ADOBE, "rb").read())
    return path


def malformed(icc):
    data = bytearray(icc)
    count = struct.unpack(">I", data[128:132])[0]
    for i in range(count):
        entry = 132 + 12 * i
        data[entry + 4:entry + 8] = struct.pack(">I", len(data) + 4096)
    return bytes(data)


def write_reference(stored, prefix):
    """Pillow's conversion of `stored` to sRGB from the profile its PNG carries (Adobe RGB when it has none), as raw
    RGBA8 with its size. djxl 0.7 renders a lossy (XYB) file with an ICC profile in linear sRGB, with a profile
    saying so."""
    icc = stored.info.get("icc_profile") or open(ADOBE, "rb").read()
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    converted = ImageCms.profileToProfile(
        stored.convert("RGB"), profile, SRGB, renderingIntent=0, outputMode="RGB").convert("RGBA")
    open(prefix + ".srgb.rgba", "wb").write(converted.tobytes())
    open(prefix + ".srgb.size", "w").write(f"{converted.width} {converted.height}\n")


def decoded(command, path, work):
    """The reference decoder's pixels of `path`, as Pillow reads the PNG it writes."""
    out = os.path.join(work, "out.png")
    run(*command, path, out)
    image = Image.open(out)
    image.load()
    return image


def main():
    with tempfile.TemporaryDirectory() as work:
        png = source(os.path.join(work, "adobe.png"))
        plain = os.path.join(work, "plain.png")
        Image.open(png).save(plain)  # no profile, for the malformed ones
        bad = os.path.join(work, "bad.icc")
        open(bad, "wb").write(malformed(open(SMALL, "rb").read()))
        run("avifenc", "-j", "1", "-s", "8", "-l", png, f"{AVIF}/icc-lossless.avif")  # avifenc embeds the PNG's iCCP
        run("avifenc", "-j", "1", "-s", "8", "--min", "20", "--max", "30", "--icc", bad, plain,
            f"{AVIF}/icc-malformed.avif")
        run("heif-enc", "-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", f"{HEIF}/icc-lossless.heic", png)
        run("cjxl", "-d", "1.0", "-e", "7", png, f"{JXL}/icc-lossy.jxl")
        stored = Image.open(png)
        write_reference(stored, f"{AVIF}/icc-lossless")
        write_reference(decoded(["heif-convert"], f"{HEIF}/icc-lossless.heic", work), f"{HEIF}/icc-lossless")
        write_reference(stored, f"{JXL}/icc")  # icc.jxl is lossless
        write_reference(decoded(["avifdec", "-j", "1", "-d", "8"], f"{AVIF}/icc.avif", work), f"{AVIF}/icc")
        write_reference(decoded(["heif-convert"], f"{HEIF}/icc.heic", work), f"{HEIF}/icc")
        write_reference(decoded(["djxl"], f"{JXL}/icc-lossy.jxl", work), f"{JXL}/icc-lossy")
        # heif-enc takes no --icc: the malformed HEIC is written by a few lines over libheif.
        writer = os.path.join(work, "bad_heic.c")
        open(writer, "w").write(HEIC_WITH_PROFILE)
        run("cc", "-o", os.path.join(work, "bad_heic"), writer,
            *subprocess.check_output(["pkg-config", "--cflags", "--libs", "libheif"], text=True).split())
        run(os.path.join(work, "bad_heic"), f"{HEIF}/still.heic", bad, f"{HEIF}/icc-malformed.heic")


HEIC_WITH_PROFILE = r"""
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
/* bad_heic IN.heic PROFILE OUT.heic: re-encodes IN's primary image with PROFILE's bytes as its colr prof box. */
int main(int argc, char** argv) {
    struct heif_context* in = heif_context_alloc();
    if (heif_context_read_from_file(in, argv[1], NULL).code) return 1;
    struct heif_image_handle* handle; struct heif_image* image;
    heif_context_get_primary_image_handle(in, &handle);
    if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL).code) return 2;
    FILE* f = fopen(argv[2], "rb"); char profile[65536]; size_t size = fread(profile, 1, sizeof profile, f);
    if (heif_image_set_raw_color_profile(image, "prof", profile, size).code) return 3;
    struct heif_context* out = heif_context_alloc();
    struct heif_encoder* encoder;
    heif_context_get_encoder_for_format(out, heif_compression_HEVC, &encoder);
    heif_encoder_set_lossy_quality(encoder, 60);
    if (heif_context_encode_image(out, image, encoder, NULL, NULL).code) return 4;
    return heif_context_write_to_file(out, argv[3]).code ? 5 : 0;
}
"""

if __name__ == "__main__":
    main()
