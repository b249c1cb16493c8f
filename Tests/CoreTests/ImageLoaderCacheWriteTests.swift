import Foundation
import Testing

@testable import ImagoCore

/// A disk cache whose writes wait for a gate.
final class SlowDataCache: DataCache {
    let gate = AsyncGate()
    let inner = FakeDataCache()

    func entry(for key: CacheKey) async -> DataCacheEntry? { await inner.entry(for: key) }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        await gate.wait()
        try await inner.store(entry, for: key)
    }
    func removeEntry(for key: CacheKey) async { await inner.removeEntry(for: key) }
    func removeAll() async { await inner.removeAll() }
}

@Suite struct ImageLoaderCacheWriteTests {
    /// The bytes go on to the decoder while their disk-cache write is still running; the caller's response comes
    /// once the entry is stored, so a load that returned can be served from the disk.
    @Test func theDecodeDoesNotWaitForTheCacheWrite() async throws {
        let transport = FakeTransport()
        let decoder = FakeDecoder()
        let cache = SlowDataCache()
        let registry = PluginRegistry()
        registry.register(transport)
        registry.register(decoder)
        registry.dataCache = cache
        let loader = ImageLoader(registry: registry)
        transport.serve("/a", data: FakeDecoder.encode(width: 9, height: 4))
        let request = ImageRequest(url: URL(string: "fake://host/a")!)
        let load = Task { try await loader.image(for: request) }
        await eventually { decoder.decodeCount == 1 }
        #expect(decoder.decodeCount == 1, "decoded while the write waits")
        #expect(cache.inner.storeCount == 0 && cache.gate.waiterCount == 1)
        cache.gate.open()
        let response = try await load.value
        #expect(response.image.width == 9)
        #expect(cache.inner.storeCount == 1)
        #expect(cache.inner.peek(request.dataCacheKey)?.data == FakeDecoder.encode(width: 9, height: 4))
    }
}
