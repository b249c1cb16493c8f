#!/usr/bin/env python3
"""Issue 37's figures through `imago serve`: f=best for a Chromium-like Accept against each single format (bytes),
the CPU per request against q=80, the encodes per request, and a repeated request to a second process sharing the
result store (results expire at once, `cacheMaxAge` 0, so only the decision is shared) doing one encode.

    Scripts/quality/serve-figures.py IMAGO PHOTOS [SIDE] [NAMES...]

IMAGO is the `imago` executable (a release build for the CPU column), PHOTOS a folder of PNG masters
(Scripts/bench/photo-set.sh OUT), SIDE the box the photos are fitted into (512; 0: full size). NAMES default to the
11 photographs Docs/Quality.md's calibration used. The server's CPU is read from /proc (utime + stime of the process)
around each request, made one at a time; the result cache is off, so every request renders.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

CHROMIUM_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
NAMES = ["bythewater", "coldripple", "colorfulcups", "darkesthour", "eveningglow", "fallenleaf", "grey", "kite",
         "onestandsout", "path", "summer-1am"]
FORMATS = ["avif", "webp", "jxl", "jpeg"]
# The formats Chromium's Accept lets f=best choose (it names no image/jxl).
ACCEPTED = ["avif", "webp", "jpeg"]
TICKS = os.sysconf("SC_CLK_TCK")


class Serve:
    def __init__(self, imago, config):
        self.process = subprocess.Popen([imago, "serve", "--quiet", "--config", config],
                                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"listening on http://[^:]+:(\d+)", line)
        if not match:
            raise SystemExit(f"serve did not start: {line}")
        self.port = int(match.group(1))

    def cpu(self):
        with open(f"/proc/{self.process.pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def get(self, path, accept=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}")
        if accept:
            request.add_header("Accept", accept)
        before = self.cpu()
        with urllib.request.urlopen(request, timeout=600) as response:
            body = response.read()
            headers = dict(response.headers)
        return body, headers, self.cpu() - before

    def encodes(self):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics").read().decode()
        return sum(float(line.split()[1]) for line in text.splitlines() if line.startswith("imago_encodes_total{"))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


def config(folder, photos, store):
    serve = {"listen": "127.0.0.1:0", "allowedSources": [f"file://{photos}/"], "resultCacheBytes": 0,
             "requestTimeout": 600, "cacheMaxAge": 0, "maxSourcePixels": 50_000_000,
             "resultStore": {"name": "disk", "settings": {"directory": store}}}
    path = os.path.join(folder, "serve.json")
    with open(path, "w") as file:
        # 1 GiB of pixel budget: full-size JPEG XL encodes need more than serve's default 192 MiB.
        json.dump({"dataCache": None, "loader": {"pixelMemoryBudget": 1 << 30}, "serve": serve}, file)
    return path


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    imago, photos = sys.argv[1], os.path.abspath(sys.argv[2])
    side = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    names = sys.argv[4:] or NAMES
    size = f"w={side},h={side}," if side else ""
    with tempfile.TemporaryDirectory() as folder:
        path = config(folder, photos, os.path.join(folder, "store"))
        first, second = Serve(imago, path), Serve(imago, path)
        rows = []
        try:
            for name in names:
                source = "/plain/" + urllib.parse.quote(f"file://{photos}/{name}.png", safe="")
                row = {"name": name}
                for fmt in FORMATS:
                    body, _, cpu = first.get(f"/unsafe/{size}f={fmt},q=80{source}")
                    row[f"{fmt} q80"], row[f"{fmt} q80 cpu"] = len(body), cpu
                    before = first.encodes()
                    body, headers, cpu = first.get(f"/unsafe/{size}f={fmt},q=auto{source}")
                    row[f"{fmt} auto"], row[f"{fmt} auto cpu"] = len(body), cpu
                    row[f"{fmt} auto encodes"] = first.encodes() - before
                before = first.encodes()
                body, headers, cpu = first.get(f"/unsafe/{size}f=best{source}", CHROMIUM_ACCEPT)
                row["best"], row["best cpu"], row["best encodes"] = len(body), cpu, first.encodes() - before
                row["best format"] = headers.get("Content-Type", "?").split("/")[-1]
                row["best header"] = headers.get("Imago-Quality", "")
                before = second.encodes()
                body, headers, cpu = second.get(f"/unsafe/{size}f=best{source}", CHROMIUM_ACCEPT)
                row["repeat encodes"], row["repeat cpu"] = second.encodes() - before, cpu
                row["repeat same"] = len(body) == row["best"]
                rows.append(row)
                print(f"{name}: best {row['best format']} {row['best']} B ({row['best header']}), "
                      f"{row['best encodes']:.0f} encodes, {row['best cpu'] * 1000:.0f} ms; repeat "
                      f"{row['repeat encodes']:.0f} encode(s), {row['repeat cpu'] * 1000:.0f} ms", file=sys.stderr)
        finally:
            first.stop()
            second.stop()
    label = f"fitted into {side}x{side}" if side else "full size"
    print(f"### f=best through `imago serve`, {label} ({len(rows)} photos, Accept: Chromium's)\n")
    print("| | total bytes | median bytes | CPU ms per request (median) | encodes per request (median, max) |")
    print("|---|---|---|---|---|")
    best_total = sum(r["best"] for r in rows)
    print(f"| f=best | {best_total} | {median([r['best'] for r in rows]):.0f} | "
          f"{median([r['best cpu'] for r in rows]) * 1000:.0f} | {median([r['best encodes'] for r in rows]):.0f}, "
          f"{max(r['best encodes'] for r in rows):.0f} |")
    smallest = sum(min(r[f"{f} auto"] for f in ACCEPTED) for r in rows)
    print(f"| smallest accepted single format at q=auto, per photo | {smallest} "
          f"({(best_total / smallest - 1) * 100:+.1f} % for f=best) | "
          f"{median([min(r[f'{f} auto'] for f in ACCEPTED) for r in rows]):.0f} | | |")
    for fmt in FORMATS:
        for kind in ["auto", "q80"]:
            total = sum(r[f"{fmt} {kind}"] for r in rows)
            encodes = "" if kind == "q80" else (f"{median([r[f'{fmt} auto encodes'] for r in rows]):.0f}, "
                                               f"{max(r[f'{fmt} auto encodes'] for r in rows):.0f}")
            spelled = "q=80" if kind == "q80" else "q=auto"
            print(f"| {fmt} {spelled} | {total} ({(best_total / total - 1) * 100:+.1f} % for f=best) | "
                  f"{median([r[f'{fmt} {kind}'] for r in rows]):.0f} | "
                  f"{median([r[f'{fmt} {kind} cpu'] for r in rows]) * 1000:.0f} | {encodes} |")
    print(f"| f=best repeated at a second process (store shared, result expired) | | | "
          f"{median([r['repeat cpu'] for r in rows]) * 1000:.0f} | {median([r['repeat encodes'] for r in rows]):.0f}, "
          f"{max(r['repeat encodes'] for r in rows):.0f} |")
    chosen = {}
    for r in rows:
        chosen[r["best format"]] = chosen.get(r["best format"], 0) + 1
    print(f"\nChosen: {', '.join(f'{k} {v}' for k, v in sorted(chosen.items()))}; the repeat answered the same bytes "
          f"for {sum(r['repeat same'] for r in rows)} of {len(rows)}.")


if __name__ == "__main__":
    main()
