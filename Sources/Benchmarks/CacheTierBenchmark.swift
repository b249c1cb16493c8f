import CHiredis
import Dispatch
import Foundation
import Imago
import ImagoTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one 100 KB entry costs from each place a fleet member can get it, on loopback: a Redis hit (our
/// `RedisDataCache` against a bare hiredis `GET`), a disk hit (`DiskDataCache` against reading the file) and a
/// network fetch (`CurlTransport`, the default HTTP transport on Linux, against a bare `URLSession` request) from a
/// Python origin. Each case does
/// `count` reads, so the figure in ms divided by `count` is the cost of one. A `redis-server` child on a free port
/// and the origin are started once for all three and stopped when the benchmark exits.
enum CacheTierBenchmark {
    static let count = 200
    static let size = 100 * 1024

    /// The servers and caches, made on first use.
    final class Fixture: @unchecked Sendable {  // made once, then only read
        let redis: RedisServer
        let origin: CountingOrigin
        let key: CacheKey
        let entry: DataCacheEntry
        let redisCache: RedisDataCache
        let disk: DiskDataCache
        let diskFile: URL

        init() throws {
            redis = try RedisServer()
            var random = SystemRandomNumberGenerator()
            let bytes = Data((0..<CacheTierBenchmark.size).map { _ in UInt8.random(in: 0...255, using: &random) })
            origin = try CountingOrigin(files: ["entry.bin": bytes])
            key = CacheKey(origin.url("entry.bin").absoluteString)
            entry = DataCacheEntry(data: bytes, metadata: CacheMetadata(contentType: "image/jpeg"))
            redisCache = RedisDataCache(
                configuration: .init(endpoint: try RedisEndpoint(url: redis.url()), keyPrefix: "bench:", timeout: 2))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-bench-tiers")
            try? FileManager.default.removeItem(at: folder)
            disk = DiskDataCache(configuration: .init(directory: folder))
            let (redisCache, disk, entry, key) = (redisCache, disk, entry, key)
            try runBlocking {
                try await redisCache.store(entry, for: key)
                try await disk.store(entry, for: key)
            }
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            guard let file = files.first(where: { $0.pathExtension == "imago" }) else {
                throw ImagoError(.cacheFailed, "the benchmark's disk entry was not written")
            }
            diskFile = file
        }
    }

    nonisolated(unsafe) private static var made: Fixture?

    static func fixture() throws -> Fixture {
        if let made { return made }
        let fixture = try Fixture()
        made = fixture
        return fixture
    }

    static func redisHit() throws -> BenchmarkCase {
        let fixture = try fixture()
        let name = fixture.redisCache.redisKey(for: fixture.key)
        guard let context = redisConnect("127.0.0.1", Int32(fixture.redis.port)), context.pointee.err == 0 else {
            throw ImagoError(.cacheFailed, "cannot connect to the benchmark's redis-server")
        }
        let (cache, key) = (fixture.redisCache, fixture.key)
        return BenchmarkCase(
            name: "tier redis hit 100 KB x\(count)",
            imago: {
                try runBlocking {
                    for _ in 0..<count {
                        guard await cache.entry(for: key) != nil else { throw ImagoError(.cacheFailed, "redis miss") }
                    }
                }
            },
            baseline: {
                try "GET".withCString { command in
                    try name.withCString { key in
                        var arguments: [UnsafePointer<CChar>?] = [command, key]
                        let lengths = [3, name.utf8.count]
                        for _ in 0..<count {
                            let reply = arguments.withUnsafeMutableBufferPointer { argv in
                                redisCommandArgv(context, 2, argv.baseAddress, lengths)
                            }
                            guard let reply else { throw ImagoError(.cacheFailed, "hiredis GET failed") }
                            freeReplyObject(reply)
                        }
                    }
                }
            })
    }

    static func diskHit() throws -> BenchmarkCase {
        let fixture = try fixture()
        let (disk, key, file) = (fixture.disk, fixture.key, fixture.diskFile)
        return BenchmarkCase(
            name: "tier disk hit 100 KB x\(count)",
            imago: {
                try runBlocking {
                    for _ in 0..<count {
                        guard await disk.entry(for: key) != nil else { throw ImagoError(.cacheFailed, "disk miss") }
                    }
                }
            },
            baseline: {
                for _ in 0..<count { _ = try Data(contentsOf: file) }
            })
    }

    static func networkFetch() throws -> BenchmarkCase {
        let fixture = try fixture()
        let url = fixture.origin.url("entry.bin")
        let transport = CurlTransport()
        let session = URLSession(configuration: .ephemeral)
        return BenchmarkCase(
            name: "tier network fetch 100 KB x\(count)",
            imago: {
                try runBlocking {
                    for _ in 0..<count { _ = try await transport.fetchAll(TransportRequest(url: url)) }
                }
            },
            baseline: {
                try runBlocking {
                    for _ in 0..<count { _ = try await session.data(from: url) }
                }
            })
    }
}
