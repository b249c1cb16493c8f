-- wrk script of Scripts/bench-servers.sh: each request asks PREFIX .. NAME .. SUFFIX for the next photo NAME of a
-- comma-separated list; each thread starts at its own offset, so identical requests are rarely in flight at once.
-- Prints one RESULT line: requests/s, p50/p95/p99 in ms, requests, socket errors and non-2xx answers.
--   wrk ... -s paths.lua URL -- PREFIX SUFFIX NAME,NAME,...
local threads = {}
function setup(thread)
    thread:set("offset", #threads * 3)
    table.insert(threads, thread)
end

function init(args)
    prefix, suffix, names = args[1], args[2], {}
    for name in string.gmatch(args[3], "[^,]+") do table.insert(names, name) end
    counter = tonumber(wrk.thread:get("offset")) or 0
end

function request()
    counter = counter + 1
    return wrk.format("GET", prefix .. names[(counter % #names) + 1] .. suffix)
end

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT rps=%.2f p50=%.1f p95=%.1f p99=%.1f requests=%d errors=%d non2xx=%d\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(95) / 1000,
        latency:percentile(99) / 1000, summary.requests, e.connect + e.read + e.write + e.timeout, e.status))
end
