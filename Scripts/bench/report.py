"""Quality and the table of the image-server benchmark (Scripts/bench-servers.sh, issue 36).

    report.py quality RUN PHOTOS   scores RUN/outputs/SERVER/FORMAT/NAME.EXT: bytes, size, DSSIM -> RUN/quality.tsv
    report.py table RUN            prints the table of RUN/results.tsv and RUN/quality.tsv, with the issue's targets

Quality is the project's reference DSSIM (Scripts/quality/dssim.py: 1/SSIM - 1, Gaussian 11x11 sigma 1.5, BT.601
luma) of each output against a reference resize of the same photo: the original the servers were given (PHOTOS/
NAME.EXT, decoded by Pillow), resized by Pillow's Lanczos3 to the output's own size. Every server's outputs are
decoded by the same decoder (Pillow, whose wheels read AVIF), so only the servers differ.
"""
import collections
import os
import statistics
import sys

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "quality"))
import dssim  # noqa: E402

EXTENSIONS = {"jpeg": "jpg", "png": "png", "webp": "webp", "avif": "avif"}
SERVERS = ["imago", "vips", "thumbor"]
LABELS = {"imago": "imago serve", "vips": "libvips service", "thumbor": "thumbor"}


def quality(run, photos):
    references = {}
    rows = []
    outputs = os.path.join(run, "outputs")
    for server in sorted(os.listdir(outputs)):
        for format in sorted(os.listdir(os.path.join(outputs, server))):
            folder = os.path.join(outputs, server, format)
            for file in sorted(os.listdir(folder)):
                name = os.path.splitext(file)[0]
                path = os.path.join(folder, file)
                size = os.path.getsize(path)
                try:
                    output = Image.open(path)
                    output.load()
                except OSError as error:
                    print(f"report.py: {server} {format} {name}: cannot decode the output: {error}", file=sys.stderr)
                    rows.append((server, format, name, size, 0, 0, float("nan")))
                    continue
                key = (name, format, output.size)
                if key not in references:
                    original = Image.open(os.path.join(photos, f"{name}.{EXTENSIONS[format]}")).convert("RGB")
                    references[key] = original.resize(output.size, Image.LANCZOS)
                score = dssim.dssim(references[key], output)
                rows.append((server, format, name, size, output.width, output.height, score))
    with open(os.path.join(run, "quality.tsv"), "w") as file:
        file.write("server\tformat\tphoto\tbytes\twidth\theight\tdssim\n")
        for row in rows:
            file.write("\t".join(str(value) for value in row[:6]) + f"\t{row[6]:.6f}\n")


def read_tsv(path):
    with open(path) as file:
        header = file.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in file if line.strip()]


def table(run):
    loads = collections.defaultdict(list)
    for row in read_tsv(os.path.join(run, "results.tsv")):
        loads[(row["server"], row["format"], int(row["concurrency"]))].append(row)
    scores = collections.defaultdict(list)
    for row in read_tsv(os.path.join(run, "quality.tsv")):
        scores[(row["server"], row["format"])].append(row)
    formats = [f for f in EXTENSIONS if any(key[1] == f for key in loads)]
    levels = sorted({key[2] for key in loads})
    servers = [s for s in SERVERS if any(key[0] == s for key in loads)]

    def median(rows, field):
        return statistics.median(float(r[field]) for r in rows)

    summary = {}
    for key, rows in loads.items():
        summary[key] = {
            "rps": median(rows, "rps"), "p50": median(rows, "p50_ms"), "p95": median(rows, "p95_ms"),
            "cpu": median(rows, "cpu_ms"), "rss": max(float(r["rss_mb"]) for r in rows),
            "errors": sum(int(r["errors"]) for r in rows), "rounds": len(rows)}
    quality_of = {}
    for key, rows in scores.items():
        good = [r for r in rows if r["dssim"] != "nan"]
        quality_of[key] = {
            "bytes": statistics.mean(int(r["bytes"]) for r in rows),
            "dssim": statistics.mean(float(r["dssim"]) for r in good) if good else float("nan"),
            "count": len(rows)}

    rounds = max((s["rounds"] for s in summary.values()), default=0)
    print(f"Medians over {rounds} interleaved round(s); peak RSS is the highest over the rounds (all of a server's "
          "processes); CPU is the server's processes' user+system time per request.")
    print()
    print("| format | c | server | req/s | p50 ms | p95 ms | CPU ms/req | peak RSS MiB | mean bytes | DSSIM | "
          "req/s vs libvips | vs thumbor | errors |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for format in formats:
        for level in levels:
            for server in servers:
                s = summary.get((server, format, level))
                if not s:
                    continue
                q = quality_of.get((server, format), {"bytes": float("nan"), "dssim": float("nan")})
                ratios = []
                for other in ("vips", "thumbor"):
                    o = summary.get((other, format, level))
                    ratios.append(f"{s['rps'] / o['rps']:.2f}x" if o and o["rps"] > 0 else "-")
                print(f"| {format} | {level} | {LABELS[server]} | {s['rps']:.1f} | {s['p50']:.0f} | {s['p95']:.0f} | "
                      f"{s['cpu']:.1f} | {s['rss']:.0f} | {q['bytes']:.0f} | {q['dssim']:.4f} | {ratios[0]} | "
                      f"{ratios[1]} | {s['errors']} |")
    if "imago" not in servers:
        return
    print()
    print("Targets (issue 36): req/s >= 1.5x libvips and >= 2x thumbor at every concurrency; mean bytes <= 1.03x "
          "libvips; DSSIM <= libvips + 0.002; peak RSS <= libvips; p95 at the highest concurrency <= 0.7x libvips.")
    print()
    print("| format | checks met | missed |")
    print("|---|---|---|")
    for format in formats:
        met, missed = [], []

        def check(name, passed):
            (met if passed else missed).append(name)

        for level in levels:
            i, v, t = (summary.get((s, format, level)) for s in ("imago", "vips", "thumbor"))
            if i and v:
                check(f"c{level} req/s {i['rps'] / v['rps']:.2f}x libvips", i["rps"] >= 1.5 * v["rps"])
                check(f"c{level} RSS {i['rss']:.0f}/{v['rss']:.0f} MiB", i["rss"] <= v["rss"])
            if i and t:
                check(f"c{level} req/s {i['rps'] / t['rps']:.2f}x thumbor", i["rps"] >= 2 * t["rps"])
        i, v = summary.get(("imago", format, levels[-1])), summary.get(("vips", format, levels[-1]))
        if i and v:
            check(f"c{levels[-1]} p95 {i['p95'] / v['p95']:.2f}x libvips", i["p95"] <= 0.7 * v["p95"])
        qi, qv = quality_of.get(("imago", format)), quality_of.get(("vips", format))
        if qi and qv:
            check(f"bytes {qi['bytes'] / qv['bytes']:.3f}x libvips", qi["bytes"] <= 1.03 * qv["bytes"])
            check(f"DSSIM {qi['dssim'] - qv['dssim']:+.4f} vs libvips", qi["dssim"] <= qv["dssim"] + 0.002)
        print(f"| {format} | {'; '.join(met) or '-'} | {'; '.join(missed) or '-'} |")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "quality":
        quality(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
