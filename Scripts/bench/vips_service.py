"""A libvips image service for the image-server benchmark (issue 36): imgproxy's engine and its defaults, in a WSGI
app small enough to read, so Imago is compared with libvips itself and not with the HTTP stack of one product.

    GET /fit/WIDTH/HEIGHT/FORMAT/QUALITY/PATH   fetches ORIGIN/PATH, fits it into WIDTH x HEIGHT, encodes FORMAT

Run under gunicorn (Scripts/bench-servers.sh starts it with one worker process per core, two threads each: as many
requests in flight as imgproxy's default concurrency of twice the cores):

    IMAGO_BENCH_ORIGIN=http://127.0.0.1:PORT VIPS_CONCURRENCY=1 gunicorn -w 2 -k gthread --threads 2 vips_service:app

What it does, as imgproxy does it: the source is fetched over HTTP (a kept-alive connection per thread);
`thumbnail_buffer` decodes it with shrink-on-load (JPEG DCT scaling, WebP scaled decoding, HEIF/AVIF thumbnails
when present) and finishes with a Lanczos3 reduce; libvips's operation cache is off, so every request does all the
work; each thread runs one operation at a time (VIPS_CONCURRENCY=1), since requests run in parallel. Encoders:
JPEG with optimised Huffman tables (imgproxy's `optimize_coding`), PNG with libvips's defaults, WebP at libvips's
(and imgproxy's) effort 4, AVIF through libheif's AV1 encoder at effort 1 (imgproxy's default speed 8 is
`effort = 9 - speed`). Metadata is stripped.
"""
import http.client
import os
import threading
import urllib.parse

import pyvips

pyvips.cache_set_max(0)
pyvips.cache_set_max_mem(0)
pyvips.cache_set_max_files(0)

ORIGIN = urllib.parse.urlsplit(os.environ.get("IMAGO_BENCH_ORIGIN", "http://127.0.0.1:8080"))
CONTENT_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "avif": "image/avif"}
_local = threading.local()


def fetch(path):
    """The source's bytes from the origin, over this thread's kept-alive connection (reopened once if it closed)."""
    for attempt in range(2):
        connection = getattr(_local, "connection", None)
        if connection is None:
            connection = http.client.HTTPConnection(ORIGIN.hostname, ORIGIN.port, timeout=30)
            _local.connection = connection
        try:
            connection.request("GET", "/" + path)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise LookupError(f"origin answered {response.status} for /{path}")
            return body
        except (http.client.HTTPException, OSError):
            connection.close()
            _local.connection = None
            if attempt == 1:
                raise
    raise AssertionError("unreachable")


def encode(image, format, quality):
    if format == "jpeg":
        return image.jpegsave_buffer(Q=quality, optimize_coding=True, strip=True)
    if format == "png":
        return image.pngsave_buffer(strip=True)
    if format == "webp":
        return image.webpsave_buffer(Q=quality, effort=4, strip=True)
    if format == "avif":
        return image.heifsave_buffer(Q=quality, compression="av1", effort=1, strip=True)
    raise ValueError(f"unknown format {format}")


def app(environ, start_response):
    parts = environ.get("PATH_INFO", "").lstrip("/").split("/", 5)
    if len(parts) == 1 and parts[0] == "health":
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
        return [b"ok"]
    try:
        if len(parts) != 6 or parts[0] != "fit" or parts[3] not in CONTENT_TYPES:
            raise ValueError("expected /fit/WIDTH/HEIGHT/FORMAT/QUALITY/PATH")
        width, height, format, quality, path = int(parts[1]), int(parts[2]), parts[3], int(parts[4]), parts[5]
        source = fetch(path)
        image = pyvips.Image.thumbnail_buffer(source, width, height=height, size="down")
        body = encode(image, format, quality)
    except ValueError as error:
        message = str(error).encode()
        start_response("400 Bad Request", [("Content-Type", "text/plain"), ("Content-Length", str(len(message)))])
        return [message]
    except (LookupError, pyvips.Error, OSError) as error:
        message = str(error).encode()
        start_response("502 Bad Gateway", [("Content-Type", "text/plain"), ("Content-Length", str(len(message)))])
        return [message]
    start_response("200 OK", [("Content-Type", CONTENT_TYPES[format]), ("Content-Length", str(len(body)))])
    return [body]
