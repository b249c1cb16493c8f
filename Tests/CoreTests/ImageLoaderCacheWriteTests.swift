import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// A data cache whose writes wait on a gate (and may fail), so a test can hold a write in flight.
final class GatedDataCache: DataCache {
    let gate = AsyncGate()
    let base = FakeDataCache()
    let fails: Bool
    private let started = Mutex(0)

    init(fails: Bool = false) { self.fails = fails }

    var storesStarted: Int { started.withLock { $0 } }

    func entry(for key: CacheKey) async -> DataCacheEntry? { base.peek(key) }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        started.withLock { $0 += 1 }
        await gate.wait()
        if fails { throw ImagoError(.cacheFailed, "the gated cache refuses") }
        try await base.store(entry, for: key)
    }
    func removeEntry(for key: CacheKey) async { await base.removeEntry(for: key) }
    func removeAll() async { await base.removeAll() }
}

/// Without the background write the first test never returns (the gate opens only after the load): the time
/// limit turns that into a failure.
@Suite(.timeLimit(.minutes(1))) struct ImageLoaderCacheWriteTests {
    static func loader(_ cache: GatedDataCache, imageCache: Bool = false) -> (ImageLoader, FakeTransport) {
        var builder = PluginRegistry.Builder()
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        builder.add(transport)
        builder.add(FakeDecoder())
        builder.dataCache = cache
        if imageCache { builder.imageCache = FakeImageCache() }
        let registry = builder.build()
        return (ImageLoader(registry: registry), transport)
    }

    static let request = ImageRequest(url: URL(string: "fake://host/a")!)

    @Test func theLoadReturnsWhileItsCacheWriteIsBlockedAndTheWriteEventComesAfter() async throws {
        let cache = GatedDataCache()
        let (loader, _) = Self.loader(cache)
        let recorder = EventRecorder()
        // Were the write inline, this would never return: the gate opens only after it.
        let response = try await loader.image(for: Self.request, listener: recorder)
        #expect(response.origin == .network)
        #expect(response.image.width == 4)
        #expect(cache.storesStarted == 1)
        #expect(recorder.names.last == "finished")
        #expect(!recorder.names.contains("wrote:data"))
        #expect(cache.base.storeCount == 0)

        cache.gate.open()
        await loader.waitForPendingWrites()
        #expect(cache.base.storeCount == 1)
        #expect(recorder.names.last == "wrote:data")
        #expect(recorder.names.filter { $0 == "wrote:data" }.count == 1)
        #expect(Set(recorder.recorded.map(\.loadID)).count == 1)
    }

    @Test func aFailedBackgroundWriteStillReachesTheListener() async throws {
        let cache = GatedDataCache(fails: true)
        let (loader, _) = Self.loader(cache)
        let recorder = EventRecorder()
        _ = try await loader.image(for: Self.request, listener: recorder)
        #expect(!recorder.names.contains("writeFailed:data"))
        cache.gate.open()
        await loader.waitForPendingWrites()
        #expect(recorder.names.last == "writeFailed:data")
    }

    @Test func coalescedLoadsEachHearTheWriteOnce() async throws {
        let cache = GatedDataCache()
        let (loader, transport) = Self.loader(cache)
        let gate = AsyncGate()
        transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let recorders = [EventRecorder(), EventRecorder(), EventRecorder()]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for recorder in recorders {
                group.addTask { _ = try await loader.image(for: Self.request, listener: recorder) }
            }
            await eventually { loader.imageTasks.waiterCount == 3 }
            gate.open()
            try await group.waitForAll()
        }
        #expect(transport.callCount == 1)
        cache.gate.open()
        await loader.waitForPendingWrites()
        for recorder in recorders {
            #expect(recorder.names.filter { $0 == "wrote:data" }.count == 1)
            #expect(recorder.names.last == "wrote:data")
        }
        #expect(cache.base.storeCount == 1)
    }

    @Test func aLoadRightAfterMissesTheDiskWhileTheWriteIsInFlightThenHitsIt() async throws {
        let cache = GatedDataCache()
        let (loader, transport) = Self.loader(cache)
        _ = try await loader.image(for: Self.request)
        // The write is still held: the bytes are not on disk yet, so the next load fetches again.
        #expect(try await loader.image(for: Self.request).origin == .network)
        #expect(transport.callCount == 2)
        cache.gate.open()
        await loader.waitForPendingWrites()
        #expect(try await loader.image(for: Self.request).origin == .dataCache)
        #expect(transport.callCount == 2)
    }
}
