#!/usr/bin/python3
"""Makes a deterministic batch of photo-like JPEGs for the thumbnail and memory benchmarks.

Usage: Scripts/make-photo-set.py OUT_DIR [COUNT] [WIDTHxHEIGHT]   (defaults: 200, 1600x1200)

Each file is a different crop of one of the real photographs in the shared corpus (or Docs/samples), mirrored,
tinted and lightly noised so no two files are alike, then saved as a 4:2:0 JPEG of quality 85-92, as cameras and
phones write them after resizing. Needs Pillow (python3-pil).
"""
import os
import random
import sys

from PIL import Image, ImageEnhance, ImageFilter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.environ.get("IMAGO_CORPUS", "/work/shared/corpus")
CANDIDATES = [
    "jpeg/exif-orientation/Landscape_1.jpg",
    "jpeg/pillow/xmp_test.jpg",
    "jpeg/jpeg-decoder-crashtest/imagetestsuite/32d08f4a5eb10332506ebedbb9bc7257.jpg",
    "jpeg/jpeg-decoder-crashtest/imagetestsuite/f8e19feecd246156b5d7e79efc455e99.jpg",
    "jpeg/jpeg-decoder-crashtest/imagetestsuite/40bb78b1ac031125a6d8466b374962a8.jpg",
    "oracles/image-webp-reference/gallery1/3.png",
    "oracles/image-webp-reference/gallery1/4.png",
    "oracles/image-webp-reference/gallery1/5.png",
    "oracles/jpeg-decoder-reftest-png/mjpeg.png",
]


def sources():
    found = []
    for name in CANDIDATES:
        path = os.path.join(CORPUS, name)
        try:
            image = Image.open(path)
            image.load()
            found.append(image.convert("RGB"))
        except (OSError, ValueError):
            pass
    sample = os.path.join(ROOT, "Docs/samples/photo.jpg")
    if not found and os.path.exists(sample):
        found.append(Image.open(sample).convert("RGB"))
    if not found:
        sys.exit("no source photographs found (set IMAGO_CORPUS)")
    return found


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    width, height = (int(v) for v in (sys.argv[3] if len(sys.argv) > 3 else "1600x1200").split("x"))
    os.makedirs(out, exist_ok=True)
    photos = sources()
    rng = random.Random(12)
    for index in range(count):
        photo = photos[index % len(photos)]
        # A crop of 55-100% of the photo with the output's aspect ratio, anywhere in it.
        fraction = rng.uniform(0.55, 1.0)
        crop_w = min(photo.width, int(photo.height * width / height)) * fraction
        crop_h = crop_w * height / width
        left = rng.uniform(0, photo.width - crop_w)
        top = rng.uniform(0, photo.height - crop_h)
        image = photo.resize((width, height), Image.LANCZOS, box=(left, top, left + crop_w, top + crop_h))
        if rng.random() < 0.5:
            image = image.transpose(Image.FLIP_LEFT_RIGHT)
        image = ImageEnhance.Color(image).enhance(rng.uniform(0.8, 1.25))
        image = ImageEnhance.Brightness(image).enhance(rng.uniform(0.85, 1.15))
        # Sensor-like grain, so an upscaled crop does not compress like a flat drawing.
        noise = Image.effect_noise((width, height), rng.uniform(6, 14)).filter(ImageFilter.GaussianBlur(0.6))
        image = Image.blend(image, Image.merge("RGB", (noise, noise, noise)), 0.06)
        image.save(os.path.join(out, "photo-%03d.jpg" % index), quality=rng.randint(85, 92), subsampling=2)


main()
