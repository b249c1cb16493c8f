#!/usr/bin/env bash
# Streaming animation figures (issue 27), release build: a 500-frame 1920x1080 animated GIF (moving shapes over
# noise, made with Pillow) is
#   0. played for two loops through ImagoUI's AnimationPlayer over a frame source (`imago bench play`, a virtual clock: every
#      frame decoded once per loop; peak RSS by /usr/bin/time -v),
#   1. converted to animated WebP by `imago convert --all-frames` (peak RSS by /usr/bin/time -v),
#   2. served by `imago serve` with w=480,f=webp (the server's peak RSS from /proc, VmHWM),
#   3. decoded frame by frame by `imago bench decode --frames` against Pillow's ImageSequence with .convert('RGBA')
#      on every frame, in the same run (frames per second, and their ratio).
# Both outputs are checked with Pillow: every frame, each frame's duration as in the source.
# Usage: Scripts/bench-animation.sh [FRAMES] [WIDTH] [HEIGHT]. Work files in ${IMAGO_BENCH_DIR:-/tmp/imago-bench-animation}.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench/serve.sh
frames=${1:-500}
width=${2:-1920}
height=${3:-1080}
work=${IMAGO_BENCH_DIR:-/tmp/imago-bench-animation}
python=/usr/bin/python3
mkdir -p "$work"
swift build -c release --product imago >/dev/null
imago=$(swift build -c release --show-bin-path)/imago
gif="$work/anim-$frames-${width}x$height.gif"
[ -f "$gif" ] || "$python" Scripts/make-animation.py "$gif" "$width" "$height" "$frames"
ls -l "$gif"

# Frame count and durations (ms) of a file, as Pillow reads them; compared with the source's.
check() {  # file expected-width
    "$python" - "$gif" "$1" "$2" <<'PY'
import sys
from PIL import Image
def frames(path):
    im = Image.open(path)
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        im.load()
        out.append(im.info.get("duration", 0))
    return im.size, out
(_, source), (size, output) = frames(sys.argv[1]), frames(sys.argv[2])
ok = len(output) == len(source) and output == source and size[0] == int(sys.argv[3])
print(f"  check {sys.argv[2]}: {len(output)} frames of {size[0]}x{size[1]}, durations "
      f"{'equal' if output == source else 'DIFFER'} ({sum(output)} ms a loop) -> {'OK' if ok else 'FAILED'}")
sys.exit(0 if ok else 1)
PY
}

# 0. play two loops
/usr/bin/time -v "$imago" bench play "$gif" --loops 2 --json 2>"$work/play.time" | tee "$work/play.json"
echo "imago bench play: peak_rss_mb=$(awk '/Maximum resident/ {print int($6 / 1024)}' "$work/play.time")"

# 1. convert
/usr/bin/time -v "$imago" convert "$gif" -o "$work/out.webp" --all-frames 2>"$work/convert.time"
convert_rss=$(awk '/Maximum resident/ {print int($6 / 1024)}' "$work/convert.time")
convert_s=$(awk '/Elapsed \(wall/ {print $8}' "$work/convert.time")
echo "imago convert -> webp: peak_rss_mb=$convert_rss wall=$convert_s"
check "$work/out.webp" "$width"

# 2. serve, w=480,f=webp
cat >"$work/imago.json" <<JSON
{"imageCache": null, "dataCache": null,
 "serve": {"listen": "127.0.0.1:0", "allowedSources": ["file://$work/"], "resultCacheBytes": 0}}
JSON
"$imago" serve --config "$work/imago.json" --quiet >"$work/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
port=$(ready_port "$work/serve.log" "$pid")
start=$(date +%s.%N)
curl -sf -o "$work/served.webp" "http://127.0.0.1:$port/unsafe/w=480,f=webp/plain/file%3A%2F%2F$gif"
end=$(date +%s.%N)
serve_rss=$(($(awk '/VmHWM/ {print $2}' "/proc/$pid/status") / 1024))
kill -TERM $pid
wait $pid || true
echo "imago serve w=480,f=webp: peak_rss_mb=$serve_rss seconds=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}')"
check "$work/served.webp" 480

# 3. frames per second: Imago's frame source against Pillow's ImageSequence (RGBA), same run.
imago_fps=$("$imago" bench decode "$gif" --frames --iterations 3 --json | sed -E 's/.*"fps":([0-9.]+).*/\1/')
pillow_fps=$("$python" - "$gif" <<'PY'
import sys, time
from PIL import Image, ImageSequence
rates = []
for _ in range(3):  # the median of three, as imago's
    im = Image.open(sys.argv[1])
    start = time.perf_counter()
    n = sum(1 for frame in ImageSequence.Iterator(im) if frame.convert("RGBA"))
    rates.append(n / (time.perf_counter() - start))
print(f"{sorted(rates)[1]:.1f}")
PY
)
echo "frames per second: imago=$imago_fps pillow=$pillow_fps ratio=$(awk -v a="$imago_fps" -v b="$pillow_fps" 'BEGIN {printf "%.2f", a / b}')"
