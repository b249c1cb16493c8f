#!/usr/bin/env bash
# imago serve against thumbor on this machine: 512 px JPEG thumbnails of ~2000x1350 photos read from local files,
# caches off on both sides, 8 connections (wrk), one thumbor process per core. Prints requests/s, p50/p95 latency,
# errors, the server's CPU time per request (its processes' user + system time over the run) and peak RSS of each,
# and the ratios the issue asks for (throughput >= 2x, p95 <= 0.6x, RSS <= thumbor's).
#
#   Scripts/bench-serve.sh [seconds]        (default 20 per server; needs wrk, vips, python3-venv and PyPI for thumbor)
#
# Work files (the photos, thumbor's virtual environment) live in ${IMAGO_BENCH_DIR:-/tmp/imago-bench-serve}.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
work=${IMAGO_BENCH_DIR:-/tmp/imago-bench-serve}
corpus=${IMAGO_CORPUS:-$(cd .. && pwd)/shared/corpus}
cores=$(nproc)
mkdir -p "$work/photos"

# Photos: the corpus' real photographs, turned upright and resized to 2000x1350, in eight variants (flips and
# rotations, so no two are the same bytes); a synthetic photo-like image when the corpus is absent.
if [ ! -f "$work/photos/photo-7.jpg" ]; then
    sources=()
    for name in jpeg/exif-orientation/Landscape_1.jpg jpeg/pillow/xmp_test.jpg; do
        [ -f "$corpus/$name" ] && sources+=("$corpus/$name")
    done
    if [ ${#sources[@]} -eq 0 ]; then
        vips gaussnoise "$work/noise.v" 2000 1350 --sigma 40 --mean 128
        vips colourspace "$work/noise.v" "$work/synthetic.jpg[Q=90]" srgb
        sources=("$work/synthetic.jpg")
    fi
    index=0
    for source in "${sources[@]}"; do
        vips thumbnail "$source" "$work/base.v" 2000 --height 1350 --size force
        for op in none flip-h flip-v rot180; do
            [ $index -ge 8 ] && break
            case $op in
                none) vips copy "$work/base.v" "$work/photos/photo-$index.jpg[Q=90,strip]" ;;
                flip-h) vips flip "$work/base.v" "$work/photos/photo-$index.jpg[Q=90,strip]" horizontal ;;
                flip-v) vips flip "$work/base.v" "$work/photos/photo-$index.jpg[Q=90,strip]" vertical ;;
                rot180) vips rot "$work/base.v" "$work/photos/photo-$index.jpg[Q=90,strip]" d180 ;;
            esac
            index=$((index + 1))
        done
    done
    while [ $index -lt 8 ]; do
        vips flip "$work/photos/photo-$((index - 1)).jpg" "$work/photos/photo-$index.jpg[Q=85,strip]" horizontal
        index=$((index + 1))
    done
    rm -f "$work"/*.v
fi

if [ ! -x "$work/thumbor/bin/thumbor" ]; then
    python3 -m venv "$work/thumbor"
    "$work/thumbor/bin/pip" install -q thumbor
fi

# IMAGO_BIN runs another build (a baseline, for "no worse than before" in the same run).
if [ -z "${IMAGO_BIN:-}" ]; then swift build -c release --product imago >/dev/null; fi
imago=${IMAGO_BIN:-.build/release/imago}

# wrk: each thread walks the photos from its own offset, so identical requests are rarely in flight together;
# prints p50/p95/p99 in ms, requests/s and every kind of error.
cat >"$work/paths.lua" <<'EOF'
local counter, offset = 0, 0
local threads = {}
function setup(thread)
    thread:set("offset", #threads * 4)
    table.insert(threads, thread)
end
function init(args) prefix = args[1]; suffix = args[2]; offset = tonumber(wrk.thread:get("offset")) or 0 end
function request()
    counter = counter + 1
    local path = prefix .. ((counter + offset) % 8) .. suffix
    return wrk.format("GET", path)
end
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT rps=%.1f p50=%.1f p95=%.1f p99=%.1f requests=%d errors=%d non2xx=%d\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(95) / 1000,
        latency:percentile(99) / 1000, summary.requests, e.connect + e.read + e.write + e.timeout, e.status))
end
EOF

wait_for() { for _ in $(seq 1 100); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done; return 1; }

# The sum of an awk program's output over /proc/PID/FILE of a process and its children.
tree_sum() {  # pid file awk-program
    local total=0 pid value
    for pid in $1 $(pgrep -P "$1" || true); do
        value=$(awk "$3" "/proc/$pid/$2" 2>/dev/null || echo 0)
        total=$((total + ${value:-0}))
    done
    echo $total
}

# Peak RSS (VmHWM) in MB of a process and its children.
peak_rss() { echo $(($(tree_sum "$1" status '/VmHWM/ {print $2}') / 1024)); }

# CPU time (user + system, in clock ticks) of a process and its children so far.
cpu_ticks() { tree_sum "$1" stat '{print $14 + $15}'; }

run_wrk() {  # path-prefix path-suffix base-url server-pid; adds the server's CPU ms per request to the RESULT line
    curl -sf -o "$work/check.jpg" "$3$1""0""$2" || { echo "the first thumbnail failed: $3$1""0""$2" >&2; return 1; }
    wrk -t 2 -c 8 -d 3s -s "$work/paths.lua" "$3" -- "$1" "$2" >/dev/null  # warm-up
    local before result after requests
    before=$(cpu_ticks "$4")
    result=$(wrk -t 2 -c 8 -d "${seconds}s" --timeout 10s -s "$work/paths.lua" "$3" -- "$1" "$2" | grep RESULT)
    after=$(cpu_ticks "$4")
    requests=$(echo "$result" | sed -E 's/.*requests=([0-9]+).*/\1/')
    echo "$result cpu_ms=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        'BEGIN { printf "%.1f", (n > 0 ? t / hz * 1000 / n : 0) }')"
}

port_imago=18480
port_thumbor=18490
started=()
stop_started() { for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_started EXIT

# imago serve: file sources allowed from the photo folder; no result cache, no memory or disk cache.
cat >"$work/imago.json" <<EOF
{"imageCache": null, "dataCache": null,
 "serve": {"listen": "127.0.0.1:$port_imago", "allowedSources": ["file://$work/photos/"], "resultCacheBytes": 0}}
EOF
"$imago" serve --config "$work/imago.json" --quiet 2>"$work/imago.log" &
imago_pid=$!
started+=($imago_pid)
wait_for "http://127.0.0.1:$port_imago/health"
imago_prefix="/unsafe/w=512,f=jpeg,q=80/plain/file%3A%2F%2F$work/photos/photo-"
imago_result=$(run_wrk "$imago_prefix" ".jpg" "http://127.0.0.1:$port_imago" $imago_pid)
vipsheader "$work/check.jpg"
imago_rss=$(peak_rss $imago_pid)
kill -TERM $imago_pid
wait $imago_pid || true

# thumbor: file loader, no storage, no result storage, one process per core, quality 80.
cat >"$work/thumbor.conf" <<EOF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$work/photos'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
QUALITY = 80
ALLOW_UNSAFE_URL = True
AUTO_WEBP = False
EOF
"$work/thumbor/bin/thumbor" -i 127.0.0.1 -p $port_thumbor -c "$work/thumbor.conf" --processes "$cores" -l error \
    2>"$work/thumbor.log" &
thumbor_pid=$!
started+=($thumbor_pid)
wait_for "http://127.0.0.1:$port_thumbor/healthcheck"
thumbor_result=$(run_wrk "/unsafe/512x0/photo-" ".jpg" "http://127.0.0.1:$port_thumbor" $thumbor_pid)
vipsheader "$work/check.jpg"
thumbor_rss=$(peak_rss $thumbor_pid)
thumbor_children=$(pgrep -P $thumbor_pid || true)
started+=($thumbor_children)
kill -TERM $thumbor_pid $thumbor_children 2>/dev/null || true
wait $thumbor_pid || true

field() { echo "$1" | tr ' ' '\n' | awk -F= -v key="$2" '$1 == key {print $2}'; }
echo "imago serve: $imago_result rss_mb=$imago_rss"
echo "thumbor ($cores processes): $thumbor_result rss_mb=$thumbor_rss"
awk -v ir="$(field "$imago_result" rps)" -v tr="$(field "$thumbor_result" rps)" \
    -v ip="$(field "$imago_result" p95)" -v tp="$(field "$thumbor_result" p95)" \
    -v im="$imago_rss" -v tm="$thumbor_rss" 'BEGIN {
        printf "throughput %.2fx thumbor (goal >= 2), p95 %.2fx (goal <= 0.6), peak RSS %.2fx (goal <= 1)\n",
            ir / tr, ip / tp, im / tm }'
