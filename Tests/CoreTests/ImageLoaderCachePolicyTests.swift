import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderCachePolicyTests {
    @Test func reloadSkipsBothCachesButRefreshesThem() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        let reloaded = try await env.loader.image(for: env.request("/a", policy: .reload))
        await env.loader.waitForPendingWrites()
        #expect(reloaded.origin == .network)
        #expect(env.transport.callCount == 2)
        #expect(env.imageCache.storeCount == 2)
        #expect(env.dataCache.storeCount == 2)
    }

    @Test func noneTouchesNoCache() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a", policy: .none))
        await env.loader.waitForPendingWrites()
        _ = try await env.loader.image(for: env.request("/a", policy: .none))
        await env.loader.waitForPendingWrites()
        #expect(env.transport.callCount == 2)
        #expect(env.imageCache.storeCount == 0)
        #expect(env.dataCache.storeCount == 0)
    }

    @Test func readOnlyPoliciesServeButDoNotWrite() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a", policy: [.readMemory, .readDisk]))
        await env.loader.waitForPendingWrites()
        #expect(env.imageCache.storeCount == 0)
        #expect(env.dataCache.storeCount == 0)
        env.dataCache.put(DataCacheEntry(data: FakeDecoder.encode(width: 7)), for: env.request("/a").dataCacheKey)
        let fromDisk = try await env.loader.image(for: env.request("/a", policy: [.readDisk]))
        await env.loader.waitForPendingWrites()
        #expect(fromDisk.origin == .dataCache)
        #expect(fromDisk.image.width == 7)
    }

    @Test func memoryOnlyPolicySkipsTheDisk() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        env.dataCache.put(DataCacheEntry(data: FakeDecoder.encode(width: 7)), for: env.request("/a").dataCacheKey)
        let response = try await env.loader.image(for: env.request("/a", policy: [.readMemory, .writeMemory]))
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .network)
        #expect(response.image.width == 4)
        #expect(env.imageCache.storeCount == 1)
        let again = try await env.loader.image(for: env.request("/a", policy: [.readMemory, .writeMemory]))
        await env.loader.waitForPendingWrites()
        #expect(again.origin == .memory)
    }

    @Test func freshDiskEntryIsServedWithoutTheTransport() async throws {
        let env = FakeEnvironment()
        let key = env.request("/a").dataCacheKey
        env.dataCache.put(
            DataCacheEntry(data: FakeDecoder.encode(), metadata: CacheMetadata(etag: "\"v1\"", expires: Date() + 3600)),
            for: key)
        let response = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .dataCache)
        #expect(response.attempts == 0)
        #expect(env.transport.callCount == 0)
    }

    @Test func staleEntryIsRevalidatedAnd304ServesTheCachedBytes() async throws {
        let env = FakeEnvironment()
        let key = env.request("/a").dataCacheKey
        let old = Date() - 7200
        env.dataCache.put(
            DataCacheEntry(
                data: FakeDecoder.encode(width: 9),
                metadata: CacheMetadata(
                    etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", expires: old, storedAt: old)),
            for: key)
        env.transport.serve(
            "/a", FakeTransport.Behavior(data: FakeDecoder.encode(width: 1), notModifiedFor: "\"v1\""))
        let response = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .dataCache)
        #expect(response.attempts == 1)
        #expect(response.image.width == 9)
        let sent = try #require(env.transport.requests.first)
        #expect(sent.ifNoneMatch == "\"v1\"")
        #expect(sent.ifModifiedSince == "Mon, 01 Jan 2024 00:00:00 GMT")
        let refreshed = try #require(env.dataCache.peek(key))
        #expect(refreshed.metadata.storedAt > old)
        #expect(refreshed.data == FakeDecoder.encode(width: 9))
    }

    @Test func staleEntryReplacedWhenChanged() async throws {
        let env = FakeEnvironment()
        let key = env.request("/a").dataCacheKey
        env.dataCache.put(
            DataCacheEntry(
                data: FakeDecoder.encode(width: 9), metadata: CacheMetadata(etag: "\"v1\"", expires: Date() - 1)),
            for: key)
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(width: 2),
                metadata: TransportMetadata(statusCode: 200, etag: "\"v2\"", cacheControl: "max-age=60"),
                notModifiedFor: "\"v0\""))
        let response = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .network)
        #expect(response.image.width == 2)
        let stored = try #require(env.dataCache.peek(key))
        #expect(stored.metadata.etag == "\"v2\"")
        #expect(stored.metadata.isFresh())
    }

    @Test func noStoreResponsesAreNotWrittenToDisk() async throws {
        let env = FakeEnvironment()
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(),
                metadata: TransportMetadata(statusCode: 200, cacheControl: "private, no-store")))
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(env.dataCache.storeCount == 0)
        #expect(env.imageCache.storeCount == 1)
    }

    @Test func onlyWhatTheTransportAllowsIsWrittenToDisk() async throws {
        let env = FakeEnvironment()
        let local = FakeTransport(schemes: ["local"], cachePolicy: nil)
        local.serve("/a", data: FakeDecoder.encode())
        var builder = PluginRegistry.Builder(env.registry)
        builder.add(local)
        let loader = ImageLoader(registry: builder.build())
        _ = try await loader.image(for: ImageRequest(url: URL(string: "local://host/a")!))
        await loader.waitForPendingWrites()
        #expect(local.callCount == 1)
        #expect(env.dataCache.storeCount == 0)
        #expect(env.imageCache.storeCount == 1)
    }
}

@Suite struct SourceLastModifiedTests {
    @Test func theSourcesLastModifiedReachesTheResponseAlsoFromTheDataCache() async throws {
        let stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
        let env = FakeEnvironment()
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(),
                metadata: TransportMetadata(statusCode: 200, lastModified: stamp, cacheControl: "max-age=600")))
        let fetched = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(fetched.origin == .network && fetched.sourceLastModified == stamp)
        // A second loader over the same data cache, without a memory cache: the entry kept the header.
        var builder = PluginRegistry.Builder(env.registry)
        builder.imageCache = nil
        let cached = try await ImageLoader(registry: builder.build()).image(for: env.request("/a"))
        #expect(cached.origin == .dataCache && cached.sourceLastModified == stamp)
        #expect(env.transport.callCount == 1)
    }
}
