import Foundation
import Imago
import ImagoTestSupport
import Testing

/// Several `imago load` processes with disk folders of their own sharing one Redis (a real redis-server child):
/// the origin (a loopback server counting requests) is asked once per fleet, not once per process.
@Suite struct RedisFleetTests: @unchecked Sendable {  // `Fixtures` is only read once made, from any thread
    let fixtures: Fixtures
    let redis: RedisServer
    let origin: CountingOrigin
    let rasters: [String: Raster]
    static let names = (1...6).map { "image-\($0).png" }

    init() throws {
        fixtures = try Fixtures()
        redis = try RedisServer()
        var files: [String: Data] = [:]
        var rasters: [String: Raster] = [:]
        for (index, name) in Self.names.enumerated() {
            let raster = try Raster(
                width: 40, height: 24, pixels: NoisePixels.rgba(width: 40, height: 24, seed: UInt64(index + 1)))
            files[name] = try fixtures.encode(DecodedImage(raster: raster, format: .png), as: .png)
            rasters[name] = raster
        }
        origin = try CountingOrigin(files: files)
        self.rasters = rasters
    }

    /// A configuration file: a tiered cache, disk over Redis (the disk folder comes from `--cache-dir`).
    func config(redisURL: String? = nil, tiered: Bool = true) throws -> String {
        let redisSpec: [String: Any] = [
            "name": "redis",
            "settings": ["url": redisURL ?? redis.url(), "keyPrefix": "fleet:", "timeout": 2, "retryInterval": 5],
        ]
        let dataCache: [String: Any] =
            tiered ? ["name": "tiered", "settings": ["layers": ["disk", redisSpec]]] : redisSpec
        let path = fixtures.path("config-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["dataCache": dataCache]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `imago load --json` over `names` with its own disk folder and output folder; checks every image has
    /// exactly the origin's pixels and returns each source's `cache` field.
    func load(_ names: [String], config: String, disk: String) async throws -> (caches: [String], result: ProcessResult)
    {
        let out = fixtures.path("out-\(UUID().uuidString)")
        let result = try await ImagoTool.run(
            ["load", "--json", "--config", config, "--cache-dir", fixtures.path(disk), "--out", out, "--format", "png"]
                + names.map { origin.url($0).absoluteString })
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.jsonLines()
        for (index, name) in names.enumerated() {
            let written = try fixtures.decode(out + "/" + (name as NSString).deletingPathExtension + ".png")
            #expect(written.raster == rasters[name], "\(name) has other pixels")
            #expect(lines.indices.contains(index))
        }
        return (lines.compactMap { $0["cache"] as? String }, result)
    }

    @Test func twoProcessesWithSeparateDiskFoldersShareHitsThroughRedis() async throws {
        let config = try config()
        let names = Array(Self.names.prefix(3))
        #expect(try await load(names, config: config, disk: "disk-a").caches == ["network", "network", "network"])
        #expect(try await load(names, config: config, disk: "disk-b").caches == ["redis", "redis", "redis"])
        let summary = try await ImagoTool.run(
            ["load", "--config", config, "--cache-dir", fixtures.path("disk-c"), origin.url(names[0]).absoluteString])
        #expect(summary.stdout.contains("memory 0, disk 0, redis 1, network 0"), "\(summary.stdout)")
        // The second process's disk layer was back-filled from Redis.
        #expect(try await load(names, config: config, disk: "disk-b").caches == ["disk", "disk", "disk"])
        for name in names { #expect(try await origin.count(name) == 1, "\(name) was fetched more than once") }
    }

    @Test func threeProcessesLoadingTheSameSourcesAtOnce() async throws {
        let config = try config()
        let outcomes = Mutex3()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<3 {
                group.addTask {
                    do {
                        outcomes.set(index, try await load(Self.names, config: config, disk: "disk-\(index)").caches)
                    } catch {
                        outcomes.set(index, ["failed: \(error)"])
                    }
                }
            }
        }
        for caches in outcomes.all {
            #expect(
                caches.count == Self.names.count && caches.allSatisfy { ["network", "redis"].contains($0) }, "\(caches)"
            )
        }
        for name in Self.names {
            let count = try await origin.count(name)
            #expect((1...3).contains(count), "\(name) fetched \(count) times")
        }
        // A fourth process, with an empty disk folder, is served by Redis alone.
        #expect(try await load(Self.names, config: config, disk: "disk-late").caches.allSatisfy { $0 == "redis" })
    }

    @Test func aRedisThatIsDownCostsOneWarningAndNoFailure() async throws {
        let config = try config(redisURL: "redis://127.0.0.1:\(try RedisServer.freePort())/0", tiered: false)
        let (caches, result) = try await load(Self.names, config: config, disk: "unused")
        #expect(caches == Array(repeating: "network", count: Self.names.count))
        let warnings = result.errorLines.filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("redis") == true, "\(result.stderr)")
    }

    @Test func cacheStatsAndClearSeeOnlyThePrefix() async throws {
        let config = try config(tiered: false)
        try redis.cli(["SET", "someone-else:key", "kept"])
        _ = try await load(Array(Self.names.prefix(2)), config: config, disk: "unused")
        let stats = try await ImagoTool.run(["cache", "stats", "--config", config])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.lines.contains("cache: redis"), "\(stats.stdout)")
        #expect(stats.lines.contains("prefix: fleet:"), "\(stats.stdout)")
        #expect(stats.lines.contains("entries: 2"), "\(stats.stdout)")
        let clear = try await ImagoTool.run(["cache", "clear", "--config", config])
        #expect(clear.status == 0, "\(clear.stderr)")
        #expect(clear.stdout.contains("removed 2 entries"), "\(clear.stdout)")
        #expect(try await ImagoTool.run(["cache", "stats", "--config", config]).lines.contains("entries: 0"))
        #expect(try redis.cli(["GET", "someone-else:key"]) == "kept")
    }

    @Test func cacheStatsOfAnUnreachableRedisFails() async throws {
        let config = try config(redisURL: "redis://127.0.0.1:\(try RedisServer.freePort())/0")
        let stats = try await ImagoTool.run(["cache", "stats", "--config", config, "--cache-dir", fixtures.path("d")])
        #expect(stats.status == 1)
        #expect(stats.lines.contains("cache: disk"), "the disk layer is still shown")
        #expect(stats.stderr.contains("imago cache: redis:"), "\(stats.stderr)")
    }
}

/// Three results written from three threads.
private final class Mutex3: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var values: [[String]] = [[], [], []]

    func set(_ index: Int, _ value: [String]) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }

    var all: [[String]] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
