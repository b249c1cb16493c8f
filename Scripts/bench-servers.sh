#!/usr/bin/env bash
# The image-server benchmark (issue 36), on this machine: imgproxy's image-servers-benchmark protocol (photos of about
# 2K stored as JPEG, PNG, WebP and AVIF, each fitted into 512x512 in its own format: JPEG q80, WebP q75, AVIF q65,
# PNG; originals served by nginx on the same host) run against `imago serve` (release build), thumbor (one process
# per core) and a libvips service (Scripts/bench/vips_service.py: pyvips under gunicorn, shrink-on-load), with every
# result cache off, at concurrency = cores and 4x cores, in interleaved rounds. Prints per format, concurrency and
# server: req/s, p50/p95, CPU ms per request (the server's processes' user+system time), peak RSS of its processes,
# mean output bytes and DSSIM against a Lanczos3 reference resize (Scripts/bench/report.py), and the issue's targets.
#
#   Scripts/bench-servers.sh [--quick] [--rounds N] [--seconds S] [--servers imago,vips,thumbor]
#                            [--formats jpeg,png,webp,avif] [--photos DIR] [--imago-codecs JSON]
#
# --imago-codecs sets imago's "codecs" list, to try codec settings (e.g. '["png", "jpeg", "gif", {"name": "webp",
# "settings": {"method": 2}}, "avif"]').
# Default: 3 rounds of 20 s per server, format and concurrency (about 35 minutes on 2 cores, photo set built);
# --quick: 1 round of 5 s (about 5 minutes). Needs Scripts/setup.sh (nginx, wrk, libvips, the wallpapers, thumbor's
# and the libvips service's virtual environments). Work files: ${IMAGO_BENCH_DIR:-/tmp/imago-bench-servers}; each
# run's outputs, results.tsv, quality.tsv and table.md in a folder of its own there.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
rounds=3 seconds=20 warmup=2 imago_codecs=
servers=imago,vips,thumbor formats=jpeg,png,webp,avif
work=${IMAGO_BENCH_DIR:-/tmp/imago-bench-servers}
photos=$work/photos
while [ $# -gt 0 ]; do
    case $1 in
        --quick) rounds=1 seconds=5 warmup=1 ;;
        --rounds) rounds=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --servers) servers=$2; shift ;;
        --formats) formats=$2; shift ;;
        --photos) photos=$2; shift ;;
        --imago-codecs) imago_codecs=$2; shift ;;
        *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
    shift
done
cores=$(nproc)
levels="$cores $((cores * 4))"
thumbor_venv=${IMAGO_THUMBOR_VENV:-/opt/imago-thumbor-venv}
vips_venv=${IMAGO_VIPS_VENV:-/opt/imago-vips-venv}
run=$work/run-$(date +%Y%m%d-%H%M%S)
mkdir -p "$run/outputs" "$work"
started_at=$(date +%s)

Scripts/bench/photo-set.sh "$photos" >&2
names=$(cd "$photos" && ls *.jpg | sed 's/\.jpg$//' | paste -sd, -)
echo "photos: $(echo "$names" | tr ',' '\n' | wc -l) ($names)" >&2

imago=$repo/.build/release/imago
case ,$servers, in *,imago,*) swift build -c release --product imago >&2 ;; esac

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 150); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done; echo "no answer: $1" >&2; return 1; }
# A process and all its descendants (gunicorn's and thumbor's workers).
tree() {
    local child
    echo "$1"
    for child in $(pgrep -P "$1" || true); do tree "$child"; done
}
# Sum over a process tree of an awk program's output on /proc/PID/FILE.
tree_sum() {
    local total=0 pid value
    for pid in $(tree "$1"); do
        value=$(awk "$3" "/proc/$pid/$2" 2>/dev/null || echo 0)
        total=$((total + ${value:-0}))
    done
    echo $total
}
# User + system time of the processes and of the children they reaped (a worker that was replaced still counts).
# Field 2 (the command) may hold spaces: count from the end of the line, whose field count is fixed.
cpu_ticks() { tree_sum "$1" stat '{sub(/^.*\) /, ""); print $12 + $13 + $14 + $15}'; }
peak_rss_kb() { tree_sum "$1" status '/VmHWM/ {print $2}'; }
# Writing 5 to clear_refs resets a process's peak RSS to its current RSS, so each run reports its own peak.
reset_peaks() {
    local pid
    for pid in $(tree "$1"); do echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true; done
}

pids=()
stop_all() {
    local pid
    exec 2>/dev/null  # the shell's own "Killed" notes for its children
    for pid in "${pids[@]}"; do kill -KILL $(tree "$pid") 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_all EXIT

# The origin: nginx as a child with its own prefix, serving the photo folder with keep-alive.
origin_port=$(free_port)
mkdir -p "$run/nginx/logs"
cat >"$run/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $run/nginx/nginx.pid;
error_log $run/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    client_body_temp_path $run/nginx/tmp;
    proxy_temp_path $run/nginx/tmp;
    fastcgi_temp_path $run/nginx/tmp;
    uwsgi_temp_path $run/nginx/tmp;
    scgi_temp_path $run/nginx/tmp;
    types { image/jpeg jpg; image/png png; image/webp webp; image/avif avif; }
    server { listen 127.0.0.1:$origin_port; root $photos; }
}
EOF
nginx -p "$run/nginx" -c "$run/nginx/nginx.conf" -g 'daemon off;' &
pids+=($!)
origin=http://127.0.0.1:$origin_port
wait_for "$origin/$(echo "$names" | cut -d, -f1).jpg"

declare -A pid_of port_of
for server in ${servers//,/ }; do
    port=$(free_port)
    port_of[$server]=$port
    case $server in
        imago)
            cat >"$run/imago.json" <<EOF
{"imageCache": null, "dataCache": null,${imago_codecs:+ "codecs": $imago_codecs,}
 "serve": {"listen": "127.0.0.1:$port", "allowedSources": ["$origin/"], "allowPrivateAddresses": true,
           "resultCacheBytes": 0}}
EOF
            "$imago" serve --config "$run/imago.json" --quiet 2>"$run/imago.log" &
            pid_of[$server]=$! health=/health ;;
        vips)
            (cd Scripts/bench && IMAGO_BENCH_ORIGIN=$origin VIPS_CONCURRENCY=1 exec "$vips_venv/bin/gunicorn" \
                -b "127.0.0.1:$port" -w "$cores" -k gthread --threads 2 --backlog 2048 --timeout 600 --log-level warning \
                vips_service:app 2>"$run/vips.log") &
            pid_of[$server]=$! health=/health ;;
        thumbor)
            cat >"$run/thumbor.conf" <<EOF
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
ALLOW_UNSAFE_URL = True
AUTO_WEBP = False
HTTP_LOADER_MAX_CLIENTS = 64
EOF
            "$thumbor_venv/bin/thumbor" -i 127.0.0.1 -p "$port" -c "$run/thumbor.conf" --processes "$cores" -l error \
                2>"$run/thumbor.log" &
            pid_of[$server]=$! health=/healthcheck ;;
        *) echo "unknown server $server" >&2; exit 2 ;;
    esac
    pids+=(${pid_of[$server]})
    wait_for "http://127.0.0.1:$port$health"
done

quality_of() { case $1 in jpeg) echo 80 ;; webp) echo 75 ;; avif) echo 65 ;; png) echo 0 ;; esac; }
extension_of() { case $1 in jpeg) echo jpg ;; *) echo "$1" ;; esac; }
# The path of a request before and after the photo's name.
prefix_of() {  # server format
    local q
    q=$(quality_of "$2")
    case $1 in
        imago) echo "/unsafe/w=512,h=512,f=$2$([ "$q" -gt 0 ] && echo ",q=$q")/plain/http%3A%2F%2F127.0.0.1%3A$origin_port%2F" ;;
        vips) echo "/fit/512/512/$2/$q/" ;;
        thumbor) echo "/unsafe/fit-in/512x512/filters:format($2)$([ "$q" -gt 0 ] && echo ":quality($q)")/127.0.0.1:$origin_port/" ;;
    esac
}

# Quality pass: every photo once from every server in every format (also proves each answers before the load).
declare -A works
for server in ${servers//,/ }; do
    for format in ${formats//,/ }; do
        folder=$run/outputs/$server/$format
        mkdir -p "$folder"
        works[$server/$format]=1
        for name in ${names//,/ }; do
            ext=$(extension_of "$format")
            if ! curl -sf -o "$folder/$name.$ext" \
                "http://127.0.0.1:${port_of[$server]}$(prefix_of "$server" "$format")$name.$ext"; then
                echo "$server cannot serve $format ($name): left out of the load runs" >&2
                rm -rf "$folder"
                works[$server/$format]=0
                break
            fi
        done
    done
done
"$vips_venv/bin/python" Scripts/bench/report.py quality "$run" "$photos"

# Load: interleaved rounds (each round every format, concurrency and server in turn), wrk with one thread per core.
echo -e "round\tserver\tformat\tconcurrency\trps\tp50_ms\tp95_ms\tp99_ms\trequests\terrors\tcpu_ms\trss_mb" \
    >"$run/results.tsv"
field() { echo "$1" | tr ' ' '\n' | awk -F= -v key="$2" '$1 == key {print $2}'; }
for round in $(seq 1 "$rounds"); do
    for format in ${formats//,/ }; do
        for level in $levels; do
            for server in ${servers//,/ }; do
                [ "${works[$server/$format]}" = 1 ] || continue
                server_pid=${pid_of[$server]}
                url=http://127.0.0.1:${port_of[$server]}
                args=(-t "$cores" -c "$level" -s Scripts/bench/paths.lua "$url" -- "$(prefix_of "$server" "$format")"
                    ".$(extension_of "$format")" "$names")
                wrk -d "${warmup}s" --timeout 30s "${args[@]}" >/dev/null
                reset_peaks "$server_pid"
                before=$(cpu_ticks "$server_pid")
                result=$(wrk -d "${seconds}s" --timeout 30s "${args[@]}" | grep RESULT)
                after=$(cpu_ticks "$server_pid")
                requests=$(field "$result" requests)
                cpu=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
                    'BEGIN { printf "%.1f", (n > 0 ? t / hz * 1000 / n : 0) }')
                rss=$(($(peak_rss_kb "$server_pid") / 1024))
                errors=$(($(field "$result" errors) + $(field "$result" non2xx)))
                echo -e "$round\t$server\t$format\t$level\t$(field "$result" rps)\t$(field "$result" p50)\t$(field "$result" p95)\t$(field "$result" p99)\t$requests\t$errors\t$cpu\t$rss" \
                    | tee -a "$run/results.tsv" >&2
            done
        done
    done
done

{
    echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -r);" \
        "$(date -u +%Y-%m-%d); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg);" \
        "$(echo "$names" | tr ',' '\n' | wc -l) photos; $rounds round(s) of ${seconds}s; took $(( ($(date +%s) - started_at) / 60 )) min."
    echo
    "$vips_venv/bin/python" Scripts/bench/report.py table "$run"
} | tee "$run/table.md"
echo "results: $run" >&2
