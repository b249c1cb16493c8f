import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoRedis

/// What the Redis cache stores, where, for how long, and what it refuses to serve.
@Suite struct RedisDataCacheTests {
    let server: RedisServer

    init() throws { server = try RedisServer() }

    @Test func keysLiveUnderThePrefixWithTheConfiguredTimeToLive() async throws {
        let day = 86_400
        let cache = try RedisFixtures.cache(url: server.url(), prefix: "fleet-a:", timeToLive: day)
        try await cache.store(DataCacheEntry(data: Data([1, 2, 3])), for: "https://example.com/a.png")
        let name = cache.redisKey(for: "https://example.com/a.png")
        #expect(name.hasPrefix("fleet-a:") && name.count == "fleet-a:".count + 64)
        #expect(try server.cli(["KEYS", "*"]) == name)
        // Within ten minutes of a day: a saturated test run can hold this task for a minute or more between the
        // write and the question, and any other time to live (none, a default) is far outside the window.
        let ttl = try #require(Int(try server.cli(["TTL", name])))
        #expect((day - 600...day).contains(ttl), "TTL \(ttl)")
        // Each write sets the time to live again (the same ten-minute window: without the write it stays under 10).
        try server.cli(["EXPIRE", name, "10"])
        try await cache.store(DataCacheEntry(data: Data([4])), for: "https://example.com/a.png")
        let rewritten = try #require(Int(try server.cli(["TTL", name])))
        #expect((day - 600...day).contains(rewritten), "TTL \(rewritten) after the second write")
    }

    @Test func anEntryExpiresAfterItsTimeToLive() async throws {
        let cache = try RedisFixtures.cache(url: server.url(), timeToLive: 1)
        let forever = try RedisFixtures.cache(url: server.url(), timeToLive: 0)
        try await cache.store(DataCacheEntry(data: Data([7, 7])), for: "k")
        try await forever.store(DataCacheEntry(data: Data([8])), for: "k")
        #expect(cache.stats.writes == 1)
        #expect(try server.cli(["TTL", forever.redisKey(for: "k")]) == "-1", "ttl 0 means no expiry")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try server.cli(["EXISTS", cache.redisKey(for: "k")]) == "1" {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try server.cli(["EXISTS", cache.redisKey(for: "k")]) == "0", "still there after 10 s")
        #expect(await cache.entry(for: "k") == nil)
        #expect(await forever.entry(for: "k")?.data == Data([8]))
    }

    @Test func clearingAndCountingTouchOnlyThePrefix() async throws {
        try server.cli(["SET", "other:keep", "foreign"])
        try server.cli(["SET", "fleet-b-x", "not ours either"])  // shares the prefix's letters but not the colon
        let ours = try RedisFixtures.cache(url: server.url(), prefix: "fleet-b:")
        let theirs = try RedisFixtures.cache(url: server.url(), prefix: "fleet-c:")
        for index in 0..<25 {
            try await ours.store(DataCacheEntry(data: Data(count: 100 + index)), for: CacheKey("k\(index)"))
        }
        try await theirs.store(DataCacheEntry(data: Data(count: 10)), for: "k0")
        let contents = try await ours.contents()
        #expect(contents.entries == 25)
        let lengths = try (0..<25).map { try server.cli(["STRLEN", ours.redisKey(for: CacheKey("k\($0)"))]) }
        #expect(contents.bytes == lengths.compactMap(Int.init).reduce(0, +))
        #expect(try await ours.removeAllEntries() == 25)
        #expect(try await ours.contents().entries == 0)
        #expect(await theirs.entry(for: "k0") != nil)
        #expect(try server.cli(["GET", "other:keep"]) == "foreign")
        #expect(try server.cli(["EXISTS", "fleet-b-x"]) == "1")
    }

    @Test func aPrefixWithGlobCharactersMatchesOnlyItself() async throws {
        let cache = try RedisFixtures.cache(url: server.url(), prefix: "a*[b]?:")
        try server.cli(["SET", "aXbY:zz", "lookalike"])
        try await cache.store(DataCacheEntry(data: Data([1])), for: "k")
        #expect(try await cache.contents().entries == 1)
        #expect(try await cache.removeAllEntries() == 1)
        #expect(try server.cli(["EXISTS", "aXbY:zz"]) == "1")
    }

    @Test func entriesOverTheLimitAreNotStoredAndDropTheOlderOne() async throws {
        let cache = try RedisFixtures.cache(url: server.url(), maxEntryBytes: 1000)
        try await cache.store(DataCacheEntry(data: Data(count: 1000)), for: "k")
        #expect(await cache.entry(for: "k")?.data.count == 1000)
        try await cache.store(DataCacheEntry(data: Data(count: 1001)), for: "k")
        #expect(await cache.entry(for: "k") == nil, "neither the oversized entry nor the older one is served")
        #expect(try server.cli(["EXISTS", cache.redisKey(for: "k")]) == "0")
        #expect(cache.stats.oversized == 1)
    }

    @Test func valuesAreBinarySafe() async throws {
        let cache = try RedisFixtures.cache(url: server.url())
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }) + Data("\r\n$-1\r\n*0\r\n".utf8)
        let metadata = CacheMetadata(etag: "\"a\r\nb\"", contentType: "image/png")
        try await cache.store(DataCacheEntry(data: bytes, metadata: metadata), for: "key\r\nwith\u{0}nul")
        let found = await cache.entry(for: "key\r\nwith\u{0}nul")
        #expect(found?.data == bytes)
        #expect(found?.metadata.etag == "\"a\r\nb\"")
        #expect(found?.layer == "redis")
    }

    @Test func damagedTruncatedForeignOrWrongTypeValuesAreMissesAndDeleted() async throws {
        let cache = try RedisFixtures.cache(url: server.url())
        let data = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0) })
        let damages: [(String, @Sendable (Data) -> Data?)] = [
            (
                "flipped byte",
                {
                    var value = $0; value[value.count - 10] ^= 0x01; return value
                }
            ),
            ("truncated", { $0.prefix($0.count - 1) }),
            ("header only", { $0.prefix(CacheEntryCodec.headerSize) }),
            ("empty", { _ in Data() }),
            ("garbage", { _ in Data("not an imago entry at all".utf8) }),
            ("foreign key", { _ in nil }),
        ]
        for (what, damage) in damages {
            let key = CacheKey("https://example.com/\(what).png")
            try await cache.store(DataCacheEntry(data: data), for: key)
            let stored = try #require(try await RedisFixtures.storedValue(in: cache, key: key))
            if let damaged = damage(stored) {
                try await RedisFixtures.setValue(damaged, in: cache, key: key)
            } else {
                // Another key's valid value, copied under this key's name.
                try await cache.store(DataCacheEntry(data: data), for: "https://example.com/other.png")
                let other = try #require(
                    try await RedisFixtures.storedValue(in: cache, key: "https://example.com/other.png"))
                try await RedisFixtures.setValue(other, in: cache, key: key)
            }
            #expect(await cache.entry(for: key) == nil, "\(what) is served")
            #expect(try server.cli(["EXISTS", cache.redisKey(for: key)]) == "0", "\(what) is not deleted")
        }
        let wrongType = CacheKey("https://example.com/list.png")
        try server.cli(["RPUSH", cache.redisKey(for: wrongType), "x"])
        #expect(await cache.entry(for: wrongType) == nil)
        #expect(try server.cli(["EXISTS", cache.redisKey(for: wrongType)]) == "0")
        #expect(cache.stats.damaged == damages.count + 1)
        #expect(cache.reportedError == nil, "damage is not a failure of Redis")
    }

    @Test func aFullRedisRefusingWritesIsAReportedFailure() async throws {
        let errors = ErrorLog()
        let cache = try RedisFixtures.cache(url: server.url(), onError: { errors.append($0) })
        try server.cli(["CONFIG", "SET", "maxmemory-policy", "noeviction"])
        try server.cli(["CONFIG", "SET", "maxmemory", "1"])
        await #expect(throws: ImagoError.self) {
            try await cache.store(DataCacheEntry(data: Data(count: 10)), for: "k")
        }
        #expect(errors.all.count == 1)
        #expect(errors.all.first?.reason.contains("OOM") == true, "\(errors.all)")
        #expect(cache.stats.failures == 1)
        // Standing aside, the next write is skipped quietly: the outage was reported once already.
        try await cache.store(DataCacheEntry(data: Data(count: 10)), for: "k")
        #expect(cache.stats.skipped == 1)
        #expect(errors.all.count == 1)
    }

    @Test func theURLChoosesTheDatabase() async throws {
        let cache = try RedisFixtures.cache(url: server.url(database: 3))
        try await cache.store(DataCacheEntry(data: Data([1])), for: "k")
        #expect(try server.cli(["-n", "3", "EXISTS", cache.redisKey(for: "k")]) == "1")
        #expect(try server.cli(["-n", "0", "EXISTS", cache.redisKey(for: "k")]) == "0")
    }
}
