#!/usr/bin/env python3
"""Writes an animated GIF of moving shapes over 4-level noise: make-animation.py OUT WIDTH HEIGHT FRAMES.

Durations cycle through 40, 50, 60, 70, 80 ms; it loops forever. Pillow writes each frame after the first as the
rectangle that changed, so a 500-frame 1920x1080 file is about 10 MB. Needs Pillow (/usr/bin/python3).
"""
import sys, random
from PIL import Image, ImageDraw
W, H, N = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(7)
noise = Image.effect_noise((W, H), 40).convert("L").point(lambda v: (v // 64) * 64)
base = Image.merge("RGB", (noise, noise.point(lambda v: 255 - v), noise)).convert("P", palette=Image.ADAPTIVE, colors=16)
pal = base.getpalette()
frames = []
def frame(i):
    im = base.copy()
    d = ImageDraw.Draw(im)
    cx = (i * 11) % (W - 520)
    cy = (i * 5) % (H - 420)
    for k in range(3):
        x = cx + (i * (3 + k) + 90 * k) % 340
        y = cy + (i * (2 + k) + 70 * k) % 240
        d.ellipse([x, y, x + 120, y + 120], fill=(k * 5 + 1) % 16)
        d.rectangle([x + 40, y + 130, x + 160, y + 170], fill=(k * 3 + 7) % 16)
    return im
first = frame(0)
first.save(sys.argv[1], save_all=True, append_images=(frame(i) for i in range(1, N)),
           duration=[40 + 10 * (i % 5) for i in range(N)], loop=0)
