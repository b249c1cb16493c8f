#!/usr/bin/env bash
# imago serve's budgets under issue 33's hostile requests, on the release build, with default settings (plus the
# work folder in allowedSources). Prints one line per figure:
#
#   bombs      the 269-byte GIF with a 7000x7000 canvas and 10 frames, and its 300-frame twin, with f=webp, f=gif,
#              f=avif, no f, and /info: status, time, and imago_decodes_total (no frame may be decoded)
#   encoders   w=8000,h=6000,fit=fill,enlarge=1 of a 400x300 JPEG, f=jxl, f=heic, f=avif, one at a time and four at
#              once: statuses and the server's peak RSS over its RSS before (the goal: under the pixel budget plus
#              150 MiB, or a 422 naming the budget)
#   leaving    a client leaves an animated conversion after 2 s: the server's CPU in the next seconds, and a 400x300
#              thumbnail sent then
#   deadline   requestTimeout 5, one slot, the slot busy with a long render shared by a later client: the queued
#              request's status and time, and the busy ones'
#   sigterm    shutdownGrace 5 with a long render and a queued client: seconds from SIGTERM to exit
#
#   Scripts/bench-serve-budgets.sh            (IMAGO_BIN=path runs another build; needs python3 with Pillow)
#
# Work files live in ${IMAGO_BENCH_DIR:-/tmp/imago-bench-budgets}. Timings are wall clock: on a shared machine, read
# them as upper bounds.
set -uo pipefail
cd "$(dirname "$0")/.."
. Scripts/bench/serve.sh
work=${IMAGO_BENCH_DIR:-/tmp/imago-bench-budgets}
port=
mkdir -p "$work"
if [ -z "${IMAGO_BIN:-}" ]; then swift build -c release --product imago >/dev/null; fi
imago=$(realpath "${IMAGO_BIN:-.build/release/imago}")

# The inputs: the two bombs, a 400x300 photo-like JPEG, and an animation that takes seconds to convert.
/usr/bin/python3 - "$work" <<'EOF'
import os, random, sys
from PIL import Image
work = sys.argv[1]
def bomb(frames, path):
    data = bytearray(b"GIF89a" + bytes([7000 & 255, 7000 >> 8, 7000 & 255, 7000 >> 8, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]))
    data += bytes([0x21, 0xFF, 11]) + b"NETSCAPE2.0" + bytes([3, 1, 0, 0, 0])
    for _ in range(frames):
        data += bytes([0x21, 0xF9, 4, 0, 2, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0])
    open(path, "wb").write(bytes(data + b";"))
bomb(10, os.path.join(work, "bomb-10.gif"))
bomb(300, os.path.join(work, "bomb-300.gif"))
random.seed(1)
if not os.path.exists(os.path.join(work, "small.jpg")):
    image = Image.effect_noise((400, 300), 60).convert("RGB")
    image.save(os.path.join(work, "small.jpg"), quality=90)
if not os.path.exists(os.path.join(work, "long.gif")):
    frames = [Image.effect_noise((1000, 750), 40 + i).convert("RGB").quantize(64) for i in range(60)]
    frames[0].save(os.path.join(work, "long.gif"), save_all=True, append_images=frames[1:], duration=50, loop=0)
EOF
echo "inputs: bomb-10.gif $(stat -c %s "$work/bomb-10.gif") bytes, bomb-300.gif $(stat -c %s "$work/bomb-300.gif") bytes"

pid=
start_server() {  # start_server EXTRA_SERVE_JSON
    [ -n "$pid" ] && stop_server
    cat >"$work/imago.json" <<JSON
{"dataCache": null, "serve": {"listen": "127.0.0.1:0", "allowedSources": ["file://$work/"]$1}}
JSON
    rm -f "$work/serve.log"  # the last server's ready line must not be read
    "$imago" serve --config "$work/imago.json" --quiet >"$work/serve.log" 2>&1 &
    pid=$!
    port=$(ready_port "$work/serve.log" "$pid") || exit 1
}
stop_server() { kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; }
trap stop_server EXIT
url() {  # url OPTIONS FILE [info]
    local source
    source=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "file://$work/$2")
    echo "http://127.0.0.1:$port${3:+/info}/unsafe/$1/plain/$source"
}
get_to() { local file=$1; shift; curl -s -o "$file" -w '%{http_code} %{time_total}' "$@" || true; }  # FILE URL
get() { get_to "$work/body" "$@"; }
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
peak_kib() { awk '/VmHWM/ {print $2}' "/proc/$pid/status"; }
reset_peak() { echo 5 >"/proc/$pid/clear_refs"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v name="$1" '$1 == name {print $2}'; }

# 1. Bombs.
start_server ""
for bomb in bomb-10.gif bomb-300.gif; do
    for options in f=webp f=gif f=avif -; do
        echo "bombs     $bomb $options: $(get "$(url "$options" "$bomb")") s"
    done
    echo "bombs     $bomb /info: $(get "$(url - "$bomb" info)") s"
done
echo "bombs     imago_decodes_total $(metric imago_decodes_total); last answer: $(head -c 160 "$work/body")"

# 2. Encoders at 8000x6000 (over the budget: 422), and at 2000x1500 (within it: they take turns), one at a time and
# four at once.
budget_mib=192
for format in jxl heic avif jxl@2000x1500 avif@2000x1500; do
    size=8000x6000
    case $format in *@*) size=${format#*@}; format=${format%@*} ;; esac
    sides="w=${size%x*},h=${size#*x}"
    base=$(rss_kib)
    reset_peak
    result=$(get "$(url "$sides,fit=fill,enlarge=1,f=$format" small.jpg)")
    echo "encoders  $format $size alone: $result s, peak $(( ($(peak_kib) - base) / 1024 )) MiB over $(( base / 1024 )) MiB; $(head -c 150 "$work/body" | tr -c '[:print:]' '.')"
    base=$(rss_kib)
    reset_peak
    clients=()
    for quality in 51 52 53 54; do
        get_to "$work/body-$quality" "$(url "$sides,fit=fill,enlarge=1,f=$format,q=$quality" small.jpg)" \
            >"$work/four-$quality" &
        clients+=($!)
    done
    wait "${clients[@]}"  # not the server, which is a child too
    echo "encoders  $format $size four at once: $(for file in "$work"/four-*; do printf '%s s; ' "$(cat "$file")"; done)peak $(( ($(peak_kib) - base) / 1024 )) MiB over $(( base / 1024 )) MiB (budget $budget_mib MiB + 150)"
    rm -f "$work"/four-*
done

# 3. A client leaves an animated conversion after 2 s.
start_server ""
conversion_url=$(url f=webp long.gif)
thumbnail_url=$(url w=400,h=300,f=jpeg small.jpg)
code=0
curl -s -o /dev/null -m 2 "$conversion_url" || code=$?
left=$(cpu_ticks)
thumbnail=$(get "$thumbnail_url")
sleep 1
after1=$(cpu_ticks)
sleep 1
after2=$(cpu_ticks)
ticks=$(getconf CLK_TCK)
echo "leaving   the client left (curl exit $code, 28: still rendering at 2 s); thumbnail sent then: $thumbnail s; server CPU in the 1st second after: $(( (after1 - left) * 1000 / ticks )) ms, in the 2nd: $(( (after2 - after1) * 1000 / ticks )) ms"
echo "leaving   imago_client_disconnects_total $(metric imago_client_disconnects_total), imago_shed_requests_total $(metric imago_shed_requests_total)"

# 4. requestTimeout 5 with the only slot busy: a slow render, shared by a client who comes 2 s later (so it goes on
# past the first one's deadline), and a request queued behind it at 0.5 s.
# The URLs are made first: python3 starts slowly on a loaded machine.
start_server ', "requestTimeout": 5, "maxConcurrentRequests": 1'
busy_url=$(url f=avif long.gif)
queued_url=$(url w=300,f=jpeg small.jpg)
get_to "$work/body-busy" "$busy_url" >"$work/busy" &
clients=($!)
sleep 0.5
get_to "$work/body-queued" "$queued_url" >"$work/queued" &
clients+=($!)
sleep 1.5
get_to "$work/body-busy2" "$busy_url" >"$work/busy2" &
clients+=($!)
wait "${clients[@]}"
echo "deadline  queued request: $(cat "$work/queued") s; the busy ones: $(cat "$work/busy") s, $(cat "$work/busy2") s"

# 5. SIGTERM with shutdownGrace 5, a long render and a queued client.
start_server ', "shutdownGrace": 5, "maxConcurrentRequests": 1, "requestTimeout": 120'
busy_url=$(url f=avif,q=40 long.gif)
queued_url=$(url w=300,f=jpeg small.jpg)
get_to "$work/body-busy" "$busy_url" >"$work/busy" &
sleep 0.5
get_to "$work/body-queued" "$queued_url" >"$work/queued" &
sleep 0.5
begun=$(date +%s.%N)
kill -TERM "$pid"
wait "$pid" || true
ended=$(date +%s.%N)
pid=
wait
echo "sigterm   exit $(python3 -c "print(round($ended - $begun, 2))") s after SIGTERM (grace 5); the busy client got $(cat "$work/busy") s, the queued one $(cat "$work/queued") s"
