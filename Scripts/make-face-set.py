#!/usr/bin/env python3
"""Writes the photographs the face benchmark (imago-bench faces) measures crops on, with where the faces are.

Faces: scikit-image's `astronaut` (Eileen Collins, a NASA photograph in the public domain; Debian's python3-skimage),
her head and shoulders cut out (the face box measured by hand: 95x110 at (170, 75) of the 512x512 image). Scenes:
the photographic wallpapers of Debian's plasma-workspace-wallpapers (under /usr/share/wallpapers, free licences),
each shrunk to a wide (1800x800), tall (800x1400) or 3:2 (1500x1000) frame, with one to three of those portraits
pasted at seeded random places and sizes, some mirrored. The manifest gives each file's face boxes.

Usage: /usr/bin/python3 Scripts/make-face-set.py OUTPUT_FOLDER [COUNT]
"""
import glob
import json
import os
import random
import sys

from PIL import Image

ASTRONAUT = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png"
FACE = (170, 75, 95, 110)  # in the 512x512 photograph
PORTRAIT = (95, 0, 375, 330)  # head and shoulders: left, top, right, bottom


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    os.makedirs(out, exist_ok=True)
    portrait = Image.open(ASTRONAUT).convert("RGB").crop(PORTRAIT)
    face_in_portrait = (FACE[0] - PORTRAIT[0], FACE[1] - PORTRAIT[1], FACE[2], FACE[3])
    scenes = sorted(glob.glob("/usr/share/wallpapers/*/contents/images/*.jpg"))
    if not scenes:
        sys.exit("no wallpapers: apt-get install plasma-workspace-wallpapers")
    generator = random.Random(38)
    frames = [(1800, 800), (800, 1400), (1500, 1000)]
    manifest = []
    for index in range(count):
        width, height = frames[index % len(frames)]
        scene = Image.open(scenes[index % len(scenes)]).convert("RGB").resize((width, height), Image.LANCZOS)
        faces = []
        placed = []
        for _ in range(1 + index % 3):
            scale = generator.uniform(0.45, 1.0) * min(width, height) / 900
            w, h = int(portrait.width * scale), int(portrait.height * scale)
            piece = portrait.resize((w, h), Image.LANCZOS)
            mirrored = generator.random() < 0.5
            if mirrored:
                piece = piece.transpose(Image.FLIP_LEFT_RIGHT)
            for _attempt in range(50):
                x, y = generator.randint(0, width - w), generator.randint(0, height - h)
                if all(x + w <= px or px + pw <= x or y + h <= py or py + ph <= y for px, py, pw, ph in placed):
                    break
            else:
                continue
            placed.append((x, y, w, h))
            scene.paste(piece, (x, y))
            fx, fy, fw, fh = face_in_portrait
            if mirrored:
                fx = portrait.width - fx - fw
            faces.append([x + int(fx * scale), y + int(fy * scale), int(fw * scale), int(fh * scale)])
        name = f"scene-{index:02d}.jpg"
        scene.save(os.path.join(out, name), quality=90)
        manifest.append({"file": name, "width": width, "height": height, "faces": faces})
    with open(os.path.join(out, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=1)


main()
