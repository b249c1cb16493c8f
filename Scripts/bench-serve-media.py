#!/usr/bin/env python3
"""imago serve with faces and video (issue 38): CPU per request of g=face crops against g=sm and centre crops on the
face set (Scripts/make-face-set.py), the detector's share, and video posters and a preview through serve.

Each configuration runs in its own `imago serve` process (a release build: IMAGO_BIN), sources read from files
(file:// allowed sources), no data cache; CPU is the server process's user+system time from /proc (not wall time,
which other work on a shared machine inflates), peak RSS its VmHWM. Requests are sequential, one per image and option
set, so the result cache never answers.

Usage: Scripts/bench-serve-media.py FACE_FOLDER CLIP.mp4   (IMAGO_BIN, default .build/release/imago)
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

IMAGO = os.environ.get("IMAGO_BIN", ".build/release/imago")
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Serve:
    def __init__(self, config):
        self.folder = tempfile.mkdtemp(prefix="bench-serve-media-")
        path = os.path.join(self.folder, "imago.json")
        with open(path, "w") as f:
            json.dump(config, f)
        self.port = free_port()
        self.process = subprocess.Popen(
            [IMAGO, "serve", "--listen", f"127.0.0.1:{self.port}", "--config", path, "--quiet"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=5).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit("imago serve exited: " + self.process.stderr.read())
                time.sleep(0.1)
        raise SystemExit("imago serve did not start")

    def cpu(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def peak_rss_mib(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0

    def get(self, path):
        start = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=300) as response:
            body = response.read()
        return time.monotonic() - start, len(body)

    def metric(self, name):
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics").read().decode()
        for line in text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
        return 0.0

    def stop(self):
        self.process.kill()
        self.process.wait()


def config(folder, detector, video=False):
    codecs = ["png", "jpeg", "gif", "webp"] + (["video"] if video else [])
    return {"dataCache": None, "codecs": codecs, "detectors": ["faces"] if detector else [],
            "serve": {"allowedSources": ["file://" + os.path.abspath(folder) + "/"]}}


def source(path):
    return urllib.parse.quote("file://" + os.path.abspath(path), safe="")


def faces(folder):
    images = sorted(f for f in os.listdir(folder) if f.endswith(".jpg"))
    rows = []
    for label, detector, gravity in [("g=face", True, "face"), ("g=sm, detector configured", True, "sm"),
                                     ("g=sm, no detector (attention model)", False, "sm"), ("centre", False, "c")]:
        serve = Serve(config(folder, detector))
        try:
            before, latencies = serve.cpu(), []
            for name in images:
                for w, h in [(400, 400), (400, 500), (640, 360)]:
                    latency, _ = serve.get(f"/unsafe/w={w},h={h},fit=cover,g={gravity}/plain/{source(os.path.join(folder, name))}")
                    latencies.append(latency)
            cpu = serve.cpu() - before
            n = len(latencies)
            rows.append((label, n, cpu / n * 1000, sorted(latencies)[n // 2] * 1000,
                         serve.metric("imago_detections_total"), serve.metric("imago_detection_cache_hits_total"),
                         serve.metric("imago_detection_cpu_seconds_total")))
        finally:
            serve.stop()
    print("| crop | requests | server CPU ms / request | median latency ms | detections | detection cache hits | detection CPU s |")
    print("|---|---|---|---|---|---|---|")
    for label, n, cpu, median, detections, hits, detection_cpu in rows:
        print(f"| {label} | {n} | {cpu:.1f} | {median:.0f} | {detections:.0f} | {hits:.0f} | {detection_cpu:.2f} |")


def video(clip):
    folder = os.path.dirname(os.path.abspath(clip))
    print("\n| request | server CPU ms | latency ms | peak RSS MiB | bytes |")
    print("|---|---|---|---|---|")
    for label, options in [("default poster, w=480", "w=480"), ("t=20 exact, w=480", "w=480,t=20"),
                           ("t=20:k keyframe, w=480", "w=480,t=20:k"),
                           ("preview f=webp,w=480,fps=4,frames=20 (5 s)", "w=480,f=webp,fps=4,frames=20")]:
        serve = Serve(config(folder, False, video=True))
        try:
            baseline = serve.cpu()
            latency, size = serve.get(f"/unsafe/{options}/plain/{source(clip)}")
            print(f"| {label} | {(serve.cpu() - baseline) * 1000:.0f} | {latency * 1000:.0f} | {serve.peak_rss_mib():.0f} | {size} |")
        finally:
            serve.stop()


if __name__ == "__main__":
    faces(sys.argv[1])
    video(sys.argv[2])
