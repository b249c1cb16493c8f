#!/usr/bin/env python3
"""Generates the ICC test fixtures in Tests/Fixtures/ICC (committed; rerun only to change them).

Every tagged image gets a reference: Pillow's ImageCms.profileToProfile (perceptual, lcms2) of the stored pixels
to sRGB, saved as an untagged PNG next to it, and a line in manifest.json (file, reference, tolerance, what it is).
Needs python3-pil, numpy, colord-data, icc-profiles-free and ghostscript (CMYK and sRGB profiles).
Usage: python3 Scripts/make_icc_fixtures.py
"""
import io
import json
import os
import struct

import numpy as np
from PIL import Image, ImageCms

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "ICC")
ICC = "/usr/share/color/icc"
PROFILES = {
    "adobe": f"{ICC}/compatibleWithAdobeRGB1998.icc",  # icc-profiles-free
    "romm": f"{ICC}/ghostscript/rommrgb.icc",  # ProPhoto (ROMM) RGB, Ghostscript
    "colord": f"{ICC}/colord/AppleRGB.icc",  # colord-data (16 KB: used in one JPEG only)
    "gray": f"{ICC}/Gray.icc",  # icc-profiles-free
    "cmyk": f"{ICC}/ghostscript/ps_cmyk.icc",  # Ghostscript
    "srgb": f"{ICC}/ghostscript/srgb.icc",
}
W, H = 24, 16
SRGB = ImageCms.createProfile("sRGB")


def profile(name):
    with open(PROFILES[name], "rb") as f:
        return f.read()


def rgb_pattern():
    """Saturated ramps, so a wide-gamut profile moves every pixel."""
    y, x = np.mgrid[0:H, 0:W]
    r = (x * 255 // (W - 1)).astype(np.uint8)
    g = (y * 255 // (H - 1)).astype(np.uint8)
    b = ((x + y) * 37 % 256).astype(np.uint8)
    return Image.fromarray(np.dstack([r, g, b]), "RGB")


def alpha_pattern():
    y, x = np.mgrid[0:H, 0:W]
    return Image.fromarray(((x * 11 + y * 5) % 256).astype(np.uint8), "L")


def gray_pattern():
    y, x = np.mgrid[0:H, 0:W]
    return Image.fromarray(((x * 10 + y * 3) % 256).astype(np.uint8), "L")


def cmyk_pattern():
    y, x = np.mgrid[0:H, 0:W]
    c = (x * 255 // (W - 1)).astype(np.uint8)
    m = (y * 255 // (H - 1)).astype(np.uint8)
    ye = ((x * 7 + y * 13) % 256).astype(np.uint8)
    k = ((x + y) * 4 % 160).astype(np.uint8)
    return Image.fromarray(np.dstack([c, m, ye, k]), "CMYK")


def malformed(icc):
    """The header of a real profile (right size, 'acsp'), its tag table pointing past the end."""
    data = bytearray(icc)
    count = struct.unpack(">I", data[128:132])[0]
    for i in range(count):
        entry = 132 + 12 * i
        data[entry + 4:entry + 8] = struct.pack(">I", len(data) + 4096)
    return bytes(data)


manifest = []


def save_untagged(image, name):
    """A reference PNG with no profile (Pillow would otherwise carry the source's over)."""
    Image.frombytes(image.mode, image.size, image.tobytes()).save(os.path.join(OUT, name))


def save(name, image, fmt, icc=None, **options):
    path = os.path.join(OUT, name)
    if icc is not None:
        options["icc_profile"] = icc
    image.save(path, fmt, **options)
    return path


def reference(name, path, icc, tolerance, what):
    """Pillow's decode of the file just written, converted to sRGB with the embedded profile."""
    stored = Image.open(path)
    stored.load()
    alpha = stored.getchannel("A") if stored.mode == "RGBA" else None
    source = stored.convert("RGB") if stored.mode == "RGBA" else stored
    converted = ImageCms.profileToProfile(
        source, ImageCms.ImageCmsProfile(io.BytesIO(icc)), SRGB, renderingIntent=0, outputMode="RGB")
    if alpha is not None:
        converted.putalpha(alpha)
    ref = name + ".expected.png"
    save_untagged(converted, ref)
    manifest.append({"file": name, "reference": ref, "tolerance": tolerance, "what": what})


def control(name, path, what):
    """Untagged or sRGB-tagged: the stored pixels (Pillow's decode), which must come back unchanged."""
    stored = Image.open(path)
    stored.load()
    ref = name + ".expected.png"
    save_untagged(stored.convert("RGBA" if stored.mode == "RGBA" else "RGB"), ref)
    manifest.append({"file": name, "reference": ref, "tolerance": 0, "what": what})


def main():
    os.makedirs(OUT, exist_ok=True)
    rgb, gray, cmyk = rgb_pattern(), gray_pattern(), cmyk_pattern()
    rgba = rgb.copy()
    rgba.putalpha(alpha_pattern())
    icc = profile("colord")
    reference("rgb-colord.jpg", save("rgb-colord.jpg", rgb, "JPEG", icc, quality=95), icc, 2, "RGB JPEG, colord Apple RGB")
    for key, label in [("adobe", "Adobe RGB (1998) compatible"), ("romm", "ProPhoto/ROMM RGB")]:
        icc = profile(key)
        reference(f"rgb-{key}.jpg", save(f"rgb-{key}.jpg", rgb, "JPEG", icc, quality=95), icc, 2,
                  f"RGB JPEG, {label}")
        reference(f"rgb-{key}.png", save(f"rgb-{key}.png", rgb, "PNG", icc), icc, 2, f"RGB PNG, {label}")
        reference(f"rgb-{key}.webp", save(f"rgb-{key}.webp", rgb, "WEBP", icc, lossless=True), icc, 2,
                  f"lossless WebP, {label}")
    icc = profile("romm")
    reference("rgba-romm.png", save("rgba-romm.png", rgba, "PNG", icc), icc, 2, "RGBA PNG, ROMM RGB (alpha kept)")
    icc = profile("gray")
    reference("gray.jpg", save("gray.jpg", gray, "JPEG", icc, quality=95), icc, 2, "grey JPEG, grey profile")
    reference("gray.png", save("gray.png", gray, "PNG", icc), icc, 2, "grey PNG, grey profile")
    icc = profile("cmyk")
    reference("cmyk.jpg", save("cmyk.jpg", cmyk, "JPEG", icc, quality=95), icc, 3, "Adobe CMYK JPEG, PS CMYK profile")
    path = save("cmyk-untagged.jpg", cmyk, "JPEG", quality=95)
    stored = Image.open(path)
    save_untagged(stored.convert("RGB"), "cmyk-untagged.jpg.expected.png")
    manifest.append({"file": "cmyk-untagged.jpg", "reference": "cmyk-untagged.jpg.expected.png", "tolerance": 1,
                     "what": "CMYK JPEG without a profile: Pillow's formula (rounding within 1)"})
    icc = profile("srgb")
    for ext, fmt, options in [("jpg", "JPEG", {"quality": 95}), ("png", "PNG", {}), ("webp", "WEBP", {"lossless": True})]:
        control(f"untagged.{ext}", save(f"untagged.{ext}", rgb, fmt, **options), f"untagged {fmt}: unchanged")
        control(f"srgb.{ext}", save(f"srgb.{ext}", rgb, fmt, icc, **options), f"sRGB-tagged {fmt}: unchanged")
        bad = malformed(profile("adobe"))
        control(f"malformed.{ext}", save(f"malformed.{ext}", rgb, fmt, bad, **options),
                f"{fmt} with a malformed profile: ignored with a warning, pixels unchanged")
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
