import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct HeuristicFreshnessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func metadata(lastModifiedDaysAgo days: Double?, dateSecondsAgo: Double? = nil, cap: Double = 604_800)
        throws -> CacheMetadata
    {
        let response = TransportMetadata(
            statusCode: 200,
            lastModified: days.map { HTTPDate.string(from: now.addingTimeInterval(-$0 * 86_400)) },
            date: dateSecondsAgo.map { HTTPDate.string(from: now.addingTimeInterval(-$0)) })
        return try #require(HTTPCachePolicy().metadata(for: response, defaultMaxAge: cap, now: now))
    }

    @Test func tenPercentOfTheLastModifiedAge() throws {
        // Modified 10 days ago: fresh for one day.
        #expect(try metadata(lastModifiedDaysAgo: 10).expires == now.addingTimeInterval(86_400))
    }

    @Test func cappedAtTheDefaultMaxAge() throws {
        #expect(try metadata(lastModifiedDaysAgo: 1000).expires == now.addingTimeInterval(604_800))
        #expect(try metadata(lastModifiedDaysAgo: 10, cap: 3600).expires == now.addingTimeInterval(3600))
    }

    @Test func theDefaultMaxAgeWithoutLastModified() throws {
        #expect(try metadata(lastModifiedDaysAgo: nil).expires == now.addingTimeInterval(604_800))
        #expect(try metadata(lastModifiedDaysAgo: nil, cap: 60).expires == now.addingTimeInterval(60))
    }

    @Test func theApparentAgeCounts() throws {
        // Modified 10 days before the Date header, which is an hour old: 1 day less an hour.
        let response = TransportMetadata(
            statusCode: 200, lastModified: HTTPDate.string(from: now.addingTimeInterval(-3600 - 10 * 86_400)),
            date: HTTPDate.string(from: now.addingTimeInterval(-3600)))
        let metadata = try #require(HTTPCachePolicy().metadata(for: response, defaultMaxAge: 604_800, now: now))
        #expect(metadata.expires == now.addingTimeInterval(86_400 - 3600))
    }

    @Test func explicitFreshnessWinsOverTheHeuristic() throws {
        let response = TransportMetadata(
            statusCode: 200, lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", cacheControl: "max-age=5")
        let metadata = try #require(HTTPCachePolicy().metadata(for: response, defaultMaxAge: 604_800, now: now))
        #expect(metadata.expires == now.addingTimeInterval(5))
    }
}

@Suite struct LoaderFreshnessTests {
    @Test func aResponseWithoutFreshnessIsServedFromDiskWithinTheDefaultMaxAge() async throws {
        let env = FakeEnvironment(imageCache: false)
        env.transport.serve(
            "/a", FakeTransport.Behavior(data: FakeDecoder.encode(), metadata: TransportMetadata(statusCode: 200)))
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        let stored = try #require(env.dataCache.peek(env.request("/a").dataCacheKey))
        let lifetime = try #require(stored.metadata.expires).timeIntervalSince(stored.metadata.storedAt)
        #expect(abs(lifetime - 604_800) < 1)
        #expect(try await env.loader.image(for: env.request("/a")).origin == .dataCache)
        #expect(env.transport.callCount == 1)
    }

    @Test func theDataCachesDefaultMaxAgeCapsTheHeuristic() async throws {
        var builder = PluginRegistry.Builder()
        let transport = FakeTransport()
        transport.serve(
            "/a", FakeTransport.Behavior(data: FakeDecoder.encode(), metadata: TransportMetadata(statusCode: 200)))
        builder.add(transport)
        builder.add(FakeDecoder())
        let cache = ShortLivedDataCache()
        builder.dataCache = cache
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)
        _ = try await loader.image(for: ImageRequest(url: URL(string: "fake://h/a")!))
        await loader.waitForPendingWrites()
        let stored = try #require(cache.base.peek(ImageRequest(url: URL(string: "fake://h/a")!).dataCacheKey))
        let lifetime = try #require(stored.metadata.expires).timeIntervalSince(stored.metadata.storedAt)
        #expect(abs(lifetime - 30) < 1)
    }

    @Test func noStoreIsNeverStoredAndNoCacheAlwaysRevalidates() async throws {
        let env = FakeEnvironment(imageCache: false)
        env.transport.serve(
            "/nostore",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(), metadata: TransportMetadata(statusCode: 200, cacheControl: "no-store")))
        env.transport.serve(
            "/nocache",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(),
                metadata: TransportMetadata(statusCode: 200, etag: "\"v1\"", cacheControl: "no-cache"),
                notModifiedFor: "\"v1\""))
        _ = try await env.loader.image(for: env.request("/nostore"))
        await env.loader.waitForPendingWrites()
        _ = try await env.loader.image(for: env.request("/nostore"))
        await env.loader.waitForPendingWrites()
        #expect(env.dataCache.peek(env.request("/nostore").dataCacheKey) == nil)

        _ = try await env.loader.image(for: env.request("/nocache"))
        await env.loader.waitForPendingWrites()
        let second = try await env.loader.image(for: env.request("/nocache"))
        await env.loader.waitForPendingWrites()
        let third = try await env.loader.image(for: env.request("/nocache"))
        await env.loader.waitForPendingWrites()
        #expect(second.origin == .dataCache && third.origin == .dataCache)
        let conditional = env.transport.requests.filter { $0.url.path == "/nocache" }.map(\.ifNoneMatch)
        #expect(conditional == [nil, "\"v1\"", "\"v1\""])
    }
}

/// A data cache that keeps answers without freshness for 30 seconds at most.
final class ShortLivedDataCache: DataCache {
    let base = FakeDataCache()
    var defaultMaxAge: Double { 30 }
    func entry(for key: CacheKey) async -> DataCacheEntry? { await base.entry(for: key) }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws { try await base.store(entry, for: key) }
    func removeEntry(for key: CacheKey) async { await base.removeEntry(for: key) }
    func removeAll() async { await base.removeAll() }
}
