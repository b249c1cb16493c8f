#!/usr/bin/env bash
# imago serve's memory under varied-size load, with default settings: 4000x3000 JPEG sources read from files, widths
# 100-4000 (varied, so nearly every request is a new variant), 16 connections (wrk). Samples the server's RSS every
# 0.25 s. A 10 s warm-up of the same load fills the bounded caches (the result cache keeps up to 64 MiB of answers on
# purpose); "before" is the RSS after it, once idle. Prints RSS at start, before, the peak, and 30 s after the
# measured load, requests/s and errors, and whether the goals of Docs/Server.md hold (peak < 400 MiB, after <= 1.5x
# before).
#
#   Scripts/bench-serve-memory.sh [seconds]      (default 60; needs wrk and vips: Scripts/setup.sh installs vips)
#
# Work files live in ${IMAGO_BENCH_DIR:-/tmp/imago-bench-memory}.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench/serve.sh
seconds=${1:-60}
after=${IMAGO_BENCH_AFTER:-30}
work=${IMAGO_BENCH_DIR:-/tmp/imago-bench-memory}
mkdir -p "$work/photos"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

if [ ! -f "$work/photos/photo-3.jpg" ]; then
    vips gaussnoise "$work/noise.v" 4000 3000 --sigma 40 --mean 128
    vips colourspace "$work/noise.v" "$work/photos/photo-0.jpg[Q=85,strip]" srgb
    vips flip "$work/photos/photo-0.jpg" "$work/photos/photo-1.jpg[Q=85,strip]" horizontal
    vips flip "$work/photos/photo-0.jpg" "$work/photos/photo-2.jpg[Q=85,strip]" vertical
    vips rot "$work/photos/photo-0.jpg" "$work/photos/photo-3.jpg[Q=85,strip]" d180
    rm -f "$work"/*.v
fi

# IMAGO_BIN runs another build (a baseline, for "no worse than before" in the same run).
if [ -z "${IMAGO_BIN:-}" ]; then swift build -c release --product imago >/dev/null; fi
imago=${IMAGO_BIN:-.build/release/imago}

# Each request: one of the four photos at a width from 100 to 4000 (a fixed pseudo-random walk per thread).
cat >"$work/widths.lua" <<'EOF'
local counter = 0
local threads = {}
function setup(thread)
    thread:set("seed", #threads + 1)
    table.insert(threads, thread)
end
function init(args) prefix = args[1]; math.randomseed(tonumber(wrk.thread:get("seed")) or 1) end
function request()
    counter = counter + 1
    local width = math.random(100, 4000)
    return wrk.format("GET", prefix .. "w=" .. width .. "/plain/" .. suffix_for(counter))
end
function suffix_for(n) return photo_prefix .. (n % 4) .. ".jpg" end
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT rps=%.1f p50=%.1f p95=%.1f requests=%d errors=%d non2xx=%d\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(95) / 1000,
        summary.requests, e.connect + e.read + e.write + e.timeout, e.status))
end
EOF
encoded_folder=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote("file://" + sys.argv[1] + "/photo-", safe=""))' "$work/photos")
sed -i "1i photo_prefix = \"$encoded_folder\"" "$work/widths.lua"

cat >"$work/imago.json" <<EOF
{${IMAGO_BENCH_CONFIG:-}"serve": {"listen": "127.0.0.1:0", "allowedSources": ["file://$work/photos/"]${IMAGO_BENCH_SERVE:-}}}
EOF
IMAGO_CACHE_DIR="$work/cache" "$imago" serve --config "$work/imago.json" --quiet >"$work/imago.log" 2>&1 &
pid=$!
sampler=
trap 'kill $pid 2>/dev/null || true; kill $sampler 2>/dev/null || true' EXIT
port=$(ready_port "$work/imago.log" "$pid")

rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status"; }
: >"$work/rss.txt"
(while kill -0 $pid 2>/dev/null; do rss >>"$work/rss.txt" 2>/dev/null || true; sleep 0.25; done) &
sampler=$!

sleep 1
cold=$(rss)
wrk -t 2 -c 16 -d 10s --timeout 30s -s "$work/widths.lua" "http://127.0.0.1:$port" -- "/unsafe/" >/dev/null
sleep 10
before=$(rss)
result=$(wrk -t 2 -c 16 -d "${seconds}s" --timeout 30s -s "$work/widths.lua" "http://127.0.0.1:$port" -- "/unsafe/" | grep RESULT)
end_of_load=$(rss)
sleep "$after"
after_rss=$(rss)
peak=$(sort -n "$work/rss.txt" | tail -1)
kill $sampler 2>/dev/null || true
echo "$result"
echo "RSS MiB: start=$cold before=$before peak=$peak end-of-load=$end_of_load after-${after}s=$after_rss"
awk -v p="$peak" -v b="$before" -v a="$after_rss" 'BEGIN {
    printf "goal peak < 400 MiB: %s; goal after <= 1.5x before (%.2fx): %s\n",
        (p < 400 ? "met" : "NOT met"), a / b, (a <= 1.5 * b ? "met" : "NOT met") }'
