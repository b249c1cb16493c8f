#!/usr/bin/python3
"""Calibrates q=auto's quality models (issue 37) from `imago-bench quality-sweep` output.

    imago-bench quality-sweep PHOTOS 512 > sweep-512.csv
    IMAGO_SWEEP_FORMATS=jpeg,webp,avif,jxl imago-bench quality-sweep PHOTOS 0 > sweep-full.csv
    Scripts/quality/calibrate.py sweep-512.csv sweep-full.csv > Sources/Core/Quality/QualityModel+Standard.swift

For each format: the complexity weight w (a least-squares line through each image's mean offset of ln DSSIM from
the median curve, over qualities 30 to 95, against ln of its complexity score), the ln DSSIM curve of an image of
complexity 1 (the median over images of ln DSSIM - w ln complexity at each quality, made non-increasing), the
ln bytes-per-pixel curve (median), and the median CPU milliseconds of one encode per megapixel. Prints the Swift
source of QualityModel.standard(for:) (format it with `swift format`), and on stderr how well each candidate
complexity feature follows the images' offsets, the fit's figures and the median DSSIM of each format at quality
80 per side (the default target is then set with `imago-bench quality`, Docs/Quality.md).
"""
import collections
import csv
import math
import statistics
import sys

QUALITIES = list(range(20, 101, 5))


FEATURES = ["mean gradient", "mean 8x8 deviation", "mean |Laplacian|", "mean gradient clipped at 16",
            "share of gradients over 4"]


def read(paths):
    scores, features, points = {}, {}, collections.defaultdict(dict)
    for path in paths:
        for row in csv.reader(open(path)):
            if not row or row[0] == "photo":
                continue
            if row[0] == "#complexity":
                scores[(row[1], int(row[2]))] = float(row[3])
                continue
            if row[0] == "#features":
                features[(row[1], int(row[2]))] = [float(value) for value in row[3:]]
                continue
            if row[0].startswith("#"):
                continue
            photo, side, width, height, fmt, quality, size, dssim, encode_ms = row[:9]
            pixels = int(width) * int(height)
            points[(photo, int(side), fmt)][int(quality)] = (int(size) / pixels, float(dssim), float(encode_ms) / pixels * 1e6)
    return scores, features, points


def ln(value):
    return math.log(max(value, 1e-6))


def fit(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return slope, my - slope * mx


def offsets(fmt, points):
    """Each image's mean offset of ln DSSIM from the format's median curve, over qualities 30 to 95."""
    keys = [k for k in points if k[2] == fmt and all(q in points[k] for q in QUALITIES)]
    median = {q: statistics.median(ln(points[k][q][1]) for k in keys) for q in QUALITIES}
    return keys, [statistics.fmean(ln(points[k][q][1]) - median[q] for q in QUALITIES if 30 <= q <= 95) for k in keys]


def correlation(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    covariance = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return covariance / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def compare_features(formats, features, points):
    """How well each candidate feature (ln) follows the images' offsets: the correlation per format."""
    for index, name in enumerate(FEATURES):
        values = []
        for fmt in formats:
            keys, ys = offsets(fmt, points)
            if all(k[:2] in features for k in keys):
                values.append((fmt, correlation([ln(features[k[:2]][index]) for k in keys], ys)))
        if values:
            mean = statistics.fmean(r for _, r in values)
            listed = ", ".join(f"{fmt} {r:.3f}" for fmt, r in values)
            print(f"feature {name}: correlation with the offsets {listed}; mean {mean:.3f}", file=sys.stderr)


def calibrate(fmt, scores, points):
    keys, ys = offsets(fmt, points)
    xs = [ln(scores[k[:2]]) for k in keys]
    weight, _ = fit(xs, ys)
    residual = statistics.pstdev(y - weight * x for x, y in zip(xs, ys))
    curve = [statistics.median(ln(points[k][q][1]) - weight * ln(scores[k[:2]]) for k in keys) for q in QUALITIES]
    for index in range(1, len(curve)):
        curve[index] = min(curve[index], curve[index - 1])
    size = [statistics.median(math.log(points[k][q][0]) for k in keys) for q in QUALITIES]
    cost = statistics.median(points[k][q][2] for k in keys for q in QUALITIES if 30 <= q <= 95)
    print(f"{fmt}: {len(keys)} images, weight {weight:.3f}, spread of offsets {residual:.3f}, "
          f"{cost:.0f} ms/MP", file=sys.stderr)
    for side in sorted({k[1] for k in keys}):
        at80 = statistics.median(points[k][80][1] for k in keys if k[1] == side)
        print(f"  side {side or 'full'}: median DSSIM at q80 {at80:.5f}", file=sys.stderr)
    return weight, curve, size, cost


def swift_list(values):
    items = [f"{v:.3f}" for v in values]
    lines, line = [], "            "
    for item in items:
        if len(line) + len(item) + 2 > 116:
            lines.append(line.rstrip())
            line = "            "
        line += item + ", "
    lines.append(line.rstrip().rstrip(","))
    return "\n".join(lines)


def main():
    scores, features, points = read(sys.argv[1:])
    formats = [f for f in ["jpeg", "webp", "avif", "jxl", "heic"] if any(k[2] == f for k in points)]
    compare_features(formats, features, points)
    print("// Generated by Scripts/quality/calibrate.py from `imago-bench quality-sweep` over the photo set (issue 37).")
    print("// Do not edit: run the sweep and the script again (Docs/Quality.md).")
    print("extension QualityModel {")
    print("    /// The calibrated model of `format`; JPEG's for a format without one (a plugin's).")
    print("    public static func standard(for format: ImageFormat) -> QualityModel {")
    print("        standardModels[format] ?? standardModels[.jpeg]!")
    print("    }")
    print()
    print("    static let standardModels: [ImageFormat: QualityModel] = [")
    for fmt in formats:
        weight, curve, size, cost = calibrate(fmt, scores, points)
        print(f'        "{fmt}": QualityModel(')
        print("            logDSSIM: [")
        print(swift_list(curve))
        print(f"            ], complexityWeight: {weight:.3f},")
        print("            logBytes: [")
        print(swift_list(size))
        print(f"            ], encodeMillisecondsPerMegapixel: {cost:.0f}),")
    print("    ]")
    print("}")


if __name__ == "__main__":
    main()
