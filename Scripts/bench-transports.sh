#!/usr/bin/env bash
# Compares the two HTTP transports' CPU time and throughput against a loopback Python server (release build):
# waiting on a silent server, 20 trickled 1 MB downloads, 200 small images. Each run is a process of its own;
# the CPU figure is that process's user + system time during the scenario (getrusage).
# Usage: Scripts/bench-transports.sh [scenario…]   (silent head-then-silent trickle trickle-slow small)
set -euo pipefail
cd "$(dirname "$0")/.."
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(silent head-then-silent trickle trickle-slow small)
swift build -c release --product imago-bench >/dev/null
bench=.build/release/imago-bench

# The server reads its stdin until it closes: it ends with this script.
coproc SERVER { exec python3 -u Scripts/bench-transports-server.py; }
read -r port <&"${SERVER[0]}"
trap 'kill -9 "$SERVER_PID" 2>/dev/null || true' EXIT

for scenario in "${scenarios[@]}"; do
    for transport in curl urlsession; do
        "$bench" transports "$scenario" "$transport" "http://127.0.0.1:$port"
    done
done
