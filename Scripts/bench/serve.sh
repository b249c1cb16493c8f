# Sourced by the bench scripts that start `imago serve`. A server configured to listen on port 0 gets a free port
# from the system and names it in its ready line ("listening on http://127.0.0.1:PORT"), so two benches (or a bench
# beside a service) never collide on a fixed port.

# ready_port LOG PID: waits (up to 20 s) until the server whose output goes to LOG answers /health, then prints its
# port; fails with the log when the server exits or does not get ready.
ready_port() {
    local log=$1 pid=$2 port
    for _ in $(seq 1 400); do
        port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$log" | head -1)
        if [ -n "$port" ] && curl -s -o /dev/null "http://127.0.0.1:$port/health"; then
            echo "$port"
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "imago serve did not start: $(cat "$log")" >&2
    return 1
}
