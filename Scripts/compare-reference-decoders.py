#!/usr/bin/env python3
"""Measures how far a second reference decoder is from the one the tests compare with, per fixture: Pillow 13
(AVIF built in), pillow-heif and pillow-jxl-plugin against the committed avifdec / heif-convert / djxl pixels.
This is where the tests' tolerances come from. Not run by CI (it needs PyPI packages):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow pillow-heif pillow-jxl-plugin numpy
    /tmp/venv/bin/python Scripts/compare-reference-decoders.py
"""
import glob
import os

import numpy as np
import pillow_heif
import pillow_jxl  # noqa: F401  (registers the JPEG XL plugin)
from PIL import Image

pillow_heif.register_heif_opener()
root = os.path.join(os.path.dirname(__file__), "..", "Tests")
references = {".avif": ".avifdec", ".heic": ".libheif", ".jxl": ".djxl"}


def load(prefix):
    width, height = map(int, open(prefix + ".size").read().split())
    return np.frombuffer(open(prefix + ".rgba", "rb").read(), np.uint8).reshape(height, width, 4).astype(int)


for path in sorted(glob.glob(os.path.join(root, "*Tests", "Fixtures", "*.*"))):
    stem, extension = os.path.splitext(path)
    if extension not in references or not os.path.exists(stem + references[extension] + ".rgba"):
        continue
    try:
        image = Image.open(path)
        image.load()
        pixels = np.asarray(image.convert("RGBA")).astype(int)
    except Exception as error:  # a second decoder that refuses a file is a finding too
        print(f"{os.path.basename(path)}: second decoder failed: {error}")
        continue
    reference = load(stem + references[extension])
    delta = np.abs(pixels - reference).max() if pixels.shape == reference.shape else "size differs"
    print(f"{os.path.basename(path)}: max channel delta {delta}")
