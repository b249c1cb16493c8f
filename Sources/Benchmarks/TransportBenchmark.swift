import Foundation
import Imago
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `imago-bench transports SCENARIO TRANSPORT BASE_URL`: one HTTP transport (`curl` or `urlsession`) in one
/// scenario against the loopback server of `Scripts/bench-transports.sh`, in a process of its own, printing the
/// wall time and this process's CPU time (getrusage, user + system) spent during the scenario alone.
///
/// Scenarios: `silent` (the server waits 4 s before answering), `head-then-silent` (headers, 4 s of nothing,
/// the body), `trickle` (20 concurrent 1 MB bodies at 100 KB/s each), `trickle-slow` (the same 10 KB writes, at 50 KB/s:
/// twice the time for the same bytes), `small` (200 images of 10 KB, 8 at a time, 10 rounds: 2000 requests).
enum TransportBenchmark {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 3, let base = URL(string: arguments[2]) else {
            throw BenchmarkError(
                "usage: imago-bench transports silent|head-then-silent|trickle|trickle-slow|small curl|urlsession URL")
        }
        let (scenario, name) = (arguments[0], arguments[1])
        let transport: any ImageTransport
        switch name {
        case "curl": transport = CurlTransport(configuration: .init(maxConnectionsPerHost: 20))
        case "urlsession": transport = HTTPTransport(configuration: .init(maxConnectionsPerHost: 20))
        default: throw BenchmarkError("unknown transport \(name)")
        }
        let (urls, concurrency) = try workload(scenario, base: base)
        let cpuBefore = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        let received = Mutex(0)
        try runBlocking {
            let total = try await fetchAll(urls, with: transport, concurrency: concurrency)
            received.withLock { $0 = total }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = cpuSeconds() - cpuBefore
        let megabytes = Double(received.withLock { $0 }) / 1_048_576
        let line = [
            scenario.padding(toLength: 17, withPad: " ", startingAt: 0),
            name.padding(toLength: 11, withPad: " ", startingAt: 0),
            String(format: "wall %7.3f s", wall),
            String(format: "cpu %7.3f s", cpu),
            String(format: "cpu/wall %5.1f%%", 100 * cpu / wall),
            String(format: "%7.1f requests/s", Double(urls.count) / wall),
            String(format: "%6.2f MB", megabytes),
            String(format: "cpu/MB %6.3f s", megabytes > 0 ? cpu / megabytes : 0),
        ]
        print(line.joined(separator: "  "))
    }

    private static func workload(_ scenario: String, base: URL) throws -> (urls: [URL], concurrency: Int) {
        func url(_ path: String) -> URL { URL(string: path, relativeTo: base)!.absoluteURL }
        switch scenario {
        case "silent": return ([url("/silent?seconds=4")], 1)
        case "head-then-silent": return ([url("/head-then-silent?seconds=4")], 1)
        case "trickle": return ((0..<20).map { url("/trickle?n=1048576&rate=102400&i=\($0)") }, 20)
        case "trickle-slow": return ((0..<20).map { url("/trickle?n=1048576&rate=51200&interval=0.2&i=\($0)") }, 20)
        case "small": return ((0..<2000).map { url("/img/\($0 % 200)?n=10240") }, 8)
        default: throw BenchmarkError("unknown scenario \(scenario)")
        }
    }

    /// Fetches every URL, `concurrency` at a time; returns the bytes received.
    private static func fetchAll(_ urls: [URL], with transport: any ImageTransport, concurrency: Int) async throws
        -> Int
    {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var pending = urls.makeIterator()
            var total = 0
            for _ in 0..<concurrency {
                guard let url = pending.next() else { break }
                group.addTask { try await transport.fetchAll(TransportRequest(url: url)).data.count }
            }
            while let count = try await group.next() {
                total += count
                if let url = pending.next() {
                    group.addTask { try await transport.fetchAll(TransportRequest(url: url)).data.count }
                }
            }
            return total
        }
    }

    /// User plus system CPU time of this process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
