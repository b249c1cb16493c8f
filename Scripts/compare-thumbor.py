#!/usr/bin/python3
"""Compares Imago's thumbor dialect with a real thumbor (issue 26).

Starts thumbor (/opt/imago-thumbor-venv, file loader, no storage) and `imago serve` (thumbor's grammar at the root,
loaderBase the same folder) on 127.0.0.1 and free ports, sends each URL below to both, and compares: status class,
output size and format, and the pixels' PSNR (decoded by Pillow, RGBA). `smart` URLs compare sizes only (the
detectors differ). Prints the Markdown table and a summary; `--write DOCS` replaces the table in DOCS between the
markers, `--check DOCS` exits 1 when DOCS's table differs from this run's (the test runs that).

Usage: Scripts/compare-thumbor.py --imago .build/debug/imago [--write Docs/Dialects.md | --check Docs/Dialects.md]
"""
import argparse, base64, hashlib, hmac, io, json, math, os, shutil, signal, socket, subprocess, sys, tempfile, time
import urllib.error, urllib.request

import numpy
from PIL import Image

THUMBOR = "/opt/imago-thumbor-venv/bin/thumbor"
KEY = "compare-key"
PSNR_THRESHOLD = 30.0
BEGIN, END = "<!-- thumbor-comparison:begin -->", "<!-- thumbor-comparison:end -->"

# (path after the hash, signed?) — sizes, fit-in, flips, manual crops, alignment, smart, filters, errors.
URLS = [
    ("300x200/photo.jpg", True), ("200x300/photo.jpg", False), ("150x150/photo.jpg", True),
    ("400x300/photo.jpg", False), ("100x0/photo.jpg", True), ("0x100/photo.jpg", False),
    ("640x480/photo.jpg", True), ("123x45/photo.jpg", False), ("300x200/portrait.png", True),
    ("120x0/portrait.png", False), ("0x400/portrait.png", True), ("80x80/alpha.png", False),
    ("fit-in/200x200/photo.jpg", True), ("fit-in/100x300/photo.jpg", False), ("fit-in/800x800/photo.jpg", True),
    ("fit-in/150x150/portrait.png", False), ("fit-in/200x0/photo.jpg", True), ("fit-in/0x90/portrait.png", False),
    ("fit-in/64x64/alpha.png", True),
    ("-300x200/photo.jpg", True), ("300x-200/photo.jpg", False), ("-300x-200/photo.jpg", True),
    ("-0x0/portrait.png", False), ("fit-in/-120x120/portrait.png", True), ("-100x0/alpha.png", False),
    ("10x20:210x170/photo.jpg", True), ("0x0:200x150/photo.jpg", False), ("50x50:250x250/photo.jpg", False),
    ("100x50:300x250/100x100/photo.jpg", True), ("20x40:180x300/fit-in/80x80/portrait.png", False),
    ("0x0:400x100/200x0/photo.jpg", True),
    ("200x200/left/photo.jpg", True), ("200x200/right/photo.jpg", False), ("200x200/center/photo.jpg", True),
    ("300x100/top/photo.jpg", False), ("300x100/bottom/photo.jpg", True), ("300x100/middle/photo.jpg", False),
    ("200x200/right/bottom/portrait.png", True), ("100x200/left/top/photo.jpg", False),
    ("200x200/smart/photo.jpg", True), ("100x150/smart/portrait.png", False),
    ("300x200/filters:grayscale()/photo.jpg", True), ("300x200/filters:brightness(30)/photo.jpg", False),
    ("300x200/filters:brightness(-40)/portrait.png", True), ("300x200/filters:contrast(40)/photo.jpg", False),
    ("300x200/filters:contrast(-30)/portrait.png", True),
    ("300x200/filters:round_corner(20,255,255,255)/photo.jpg", False),
    ("fit-in/200x200/filters:round_corner(30|15,0,0,0)/portrait.png", True),
    ("300x200/filters:quality(40)/photo.jpg", False), ("300x200/filters:format(png)/photo.jpg", True),
    ("300x200/filters:format(webp)/photo.jpg", False), ("300x200/filters:rotate(90)/photo.jpg", True),
    ("300x200/filters:rotate(180)/portrait.png", False), ("300x200/filters:blur(3)/photo.jpg", True),
    ("300x200/filters:blur(4,2)/portrait.png", False), ("300x200/filters:sharpen(1.5,1,true)/portrait.png", True),
    ("fit-in/300x300/filters:fill(ff0000)/photo.jpg", False),
    ("fit-in/300x300/filters:fill(00ff00):format(png)/portrait.png", True),
    ("fit-in/800x800/filters:upscale()/photo.jpg", False), ("800x600/filters:no_upscale()/photo.jpg", True),
    ("300x200/filters:strip_exif():strip_icc()/photo.jpg", False),
    ("80x80/filters:background_color(0000ff):format(jpeg)/alpha.png", True),
    ("300x200/filters:grayscale():contrast(20):brightness(10)/photo.jpg", False),
    ("300x200/filters:grayscale():brightness(10):contrast(20)/photo.jpg", True),
    ("300x200/filters:max_bytes(8000)/photo.jpg", True), ("origx0/photo.jpg", False), ("origxorig/portrait.png", True),
    ("adaptive-fit-in/300x200/portrait.png", False), ("full-fit-in/100x100/photo.jpg", True),
    ("adaptive-fit-in/200x300/photo.jpg", True), ("adaptive-fit-in/100x100/alpha.png", False),
    ("full-fit-in/500x100/portrait.png", False), ("full-fit-in/-120x90/photo.jpg", True),
    ("200x200/filters:focal(100x100:200x200)/photo.jpg", False),
    ("adaptive-full-fit-in/100x300/photo.jpg", False),
    ("adaptive-fit-in/360x200/filters:no_upscale()/portrait.png", True),
    ("300x200/missing.jpg", True), ("300x200/photo.jpg", "bad"), ("300x200/filters:nope()/photo.jpg", True),
]


def make_images(folder):
    y, x = numpy.mgrid[0:300, 0:400].astype(numpy.float64)
    photo = numpy.stack([
        127 + 100 * numpy.sin(x / 37.0) * numpy.cos(y / 53.0), x * 255 / 399, 64 + 120 * numpy.sin((x + y) / 71.0),
    ], axis=-1)
    Image.fromarray(photo.clip(0, 255).astype(numpy.uint8), "RGB").save(
        os.path.join(folder, "photo.jpg"), quality=92)
    y, x = numpy.mgrid[0:320, 0:240].astype(numpy.float64)
    portrait = numpy.stack([y * 255 / 319, 127 + 110 * numpy.sin(x / 29.0), 200 - y * 150 / 319], axis=-1)
    Image.fromarray(portrait.clip(0, 255).astype(numpy.uint8), "RGB").save(os.path.join(folder, "portrait.png"))
    y, x = numpy.mgrid[0:160, 0:200].astype(numpy.float64)
    alpha = numpy.stack([x * 255 / 199, 90 + 0 * x, y * 255 / 159, 255 - numpy.hypot(x - 100, y - 80)], axis=-1)
    Image.fromarray(alpha.clip(0, 255).astype(numpy.uint8), "RGBA").save(os.path.join(folder, "alpha.png"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=300) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def start_thumbor(work, images):
    conf = os.path.join(work, "thumbor.conf")
    with open(conf, "w") as f:
        f.write("\n".join([
            f"SECURITY_KEY = {KEY!r}", "ALLOW_UNSAFE_URL = True", "LOADER = 'thumbor.loaders.file_loader'",
            f"FILE_LOADER_ROOT_PATH = {images!r}", "STORAGE = 'thumbor.storages.no_storage'",
            "RESULT_STORAGE = None", "QUALITY = 85", "RESPECT_ORIENTATION = True", "DETECTORS = []",
            "AUTO_WEBP = False", "PRESERVE_EXIF_INFO = False", "ENGINE_THREADPOOL_SIZE = 0",
            "MAX_AGE = 0", "UPSCALE = True", ""]))
    port = free_port()
    log = open(os.path.join(work, "thumbor.log"), "w")
    process = subprocess.Popen([THUMBOR, "-p", str(port), "-i", "127.0.0.1", "-c", conf, "-l", "error"],
                               stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if get(port, "/healthcheck")[0] == 200:
                return process, port
        except OSError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    raise SystemExit("thumbor did not start: " + open(os.path.join(work, "thumbor.log")).read())


def start_imago(imago, work, images):
    configuration = json.loads(subprocess.run([imago, "config", "--print-default"], check=True,
                                              capture_output=True).stdout)
    configuration["dataCache"] = None
    serve = configuration["serve"]
    # A generous deadline: a debug build's blur of radius 150 (thumbor's largest) takes tens of seconds.
    serve.update({"listen": "127.0.0.1:0", "allowedSources": [f"file://{images}/"], "quality": {"jpeg": 85},
                  "requestTimeout": 300})
    serve["dialects"]["imagoPathPrefix"] = "/imago"
    serve["dialects"]["thumbor"] = {"enabled": True, "securityKey": KEY, "allowUnsafe": True,
                                    "loaderBase": f"file://{images}/", "pathPrefix": ""}
    path = os.path.join(work, "imago.json")
    with open(path, "w") as f:
        json.dump(configuration, f)
    errors = os.path.join(work, "imago.err")
    process = subprocess.Popen([imago, "serve", "--config", path], stdout=subprocess.DEVNULL,
                               stderr=open(errors, "w"), stdin=subprocess.DEVNULL)
    for _ in range(600):
        for line in open(errors).read().splitlines():
            if "listening on" in line:
                return process, int(line.rsplit(":", 1)[1])
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    raise SystemExit("imago serve did not start: " + open(errors).read())


def stop(*processes):
    """Ends the children started here: SIGTERM, then SIGKILL after 20 s."""
    for process in processes:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def signed(path, mode):
    if mode is True:
        return "/" + base64.urlsafe_b64encode(hmac.new(KEY.encode(), path.encode(), hashlib.sha1).digest()).decode() \
            + "/" + path
    if mode == "bad":
        return "/" + base64.urlsafe_b64encode(hmac.new(b"other", path.encode(), hashlib.sha1).digest()).decode() \
            + "/" + path
    return "/unsafe/" + path


def decoded(body):
    image = Image.open(io.BytesIO(body))
    image.load()
    return image.format, image.size, numpy.asarray(image.convert("RGBA"), dtype=numpy.float64)


def compare(imago_port, thumbor_port, path, mode):
    url = signed(path, mode)
    (ts, tb), (ims, ib) = get(thumbor_port, url), get(imago_port, url)
    # A `|` inside a table cell ends it even within backticks: escaped.
    shown = ("unsafe" if mode is False else "signed" if mode is True else "bad hash") + " `" + \
        path.replace("|", "\\|") + "`"
    if ts // 100 != ims // 100:
        return shown, f"{ts} / {ims}", "", "", "differs (status)"
    if ts != 200:
        return shown, f"{ts} / {ims}", "", "", "match (error)"
    tf, tsize, tpixels = decoded(tb)
    imf, imsize, ipixels = decoded(ib)
    size = f"{tsize[0]}×{tsize[1]} {tf.lower()}" + ("" if (tf, tsize) == (imf, imsize) else
                                                   f" / {imsize[0]}×{imsize[1]} {imf.lower()}")
    if (tf, tsize) != (imf, imsize):
        return shown, "200", size, "", "differs (size or format)"
    if "/smart/" in path:
        return shown, "200", size, "", "smart: same size"
    mse = float(numpy.mean((tpixels - ipixels) ** 2))
    psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
    text = "∞" if psnr == math.inf else f"{psnr:.1f}"
    verdict = "exact" if psnr == math.inf else "within" if psnr >= PSNR_THRESHOLD else "differs (pixels)"
    return shown, "200", size, text, verdict


def table(rows):
    counts = {}
    for row in rows:
        key = row[4].split(" (")[0].split(":")[0]
        counts[key] = counts.get(key, 0) + 1
    lines = [f"{len(rows)} URLs; PSNR threshold {PSNR_THRESHOLD:.0f} dB (RGBA, 8 bits). "
             f"Exact: {counts.get('exact', 0)}; within the threshold: {counts.get('within', 0)}; "
             f"same status for errors: {counts.get('match', 0)}; smart (same size): {counts.get('smart', 0)}; "
             f"differ: {counts.get('differs', 0)}.", "",
             "| URL (after the hash) | status thumbor / Imago | size and format | PSNR dB | verdict |",
             "|---|---|---|---|---|"]
    lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imago", required=True)
    parser.add_argument("--write")
    parser.add_argument("--check")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="imago-thumbor-")
    images = os.path.join(work, "images")
    os.mkdir(images)
    make_images(images)
    thumbor = imago = None
    try:
        thumbor, thumbor_port = start_thumbor(work, images)
        imago, imago_port = start_imago(args.imago, work, images)
        rows = [compare(imago_port, thumbor_port, path, mode) for path, mode in URLS]
    finally:
        stop(thumbor, imago)
        shutil.rmtree(work, ignore_errors=True)
    text = table(rows)
    sys.stdout.write(text)
    docs = args.write or args.check
    if docs:
        content = open(docs).read()
        start, end = content.index(BEGIN) + len(BEGIN), content.index(END)
        if args.write:
            open(docs, "w").write(content[:start] + "\n" + text + content[end:])
        elif content[start:end].strip() != text.strip():
            sys.stderr.write(f"{docs}: the comparison table differs from this run's (Scripts/compare-thumbor.py "
                             "--write updates it)\n")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
