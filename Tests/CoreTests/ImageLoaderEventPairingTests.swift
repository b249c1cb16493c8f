import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

/// Events a listener can pair: every attempt started ends, a data-cache hit names its layer, load numbers are
/// unique in the process.
@Suite struct ImageLoaderEventPairingTests {
    @Test func aLoadCancelledDuringItsFetchEndsTheAttemptAsCancelled() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let recorder = EventRecorder()
        let load = Task { try await env.loader.image(for: env.request("/slow"), listener: recorder) }
        await eventually { recorder.names.contains("fetch1") }
        load.cancel()
        _ = await load.result
        #expect(recorder.names == ["started", "memoryMiss", "dataMiss", "fetch1", "fetchCancelled1", "cancelled"])
        #expect(recorder.attempts.count == 1 && recorder.attempts[0].wasCancelled)
        gate.open()
    }

    @Test func aLoadThatLeavesASharedFetchEndsItsAttemptWhileTheOtherFinishes() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let leaving = EventRecorder()
        let staying = EventRecorder()
        let first = Task { try await env.loader.image(for: env.request("/slow"), listener: leaving) }
        let second = Task { try await env.loader.image(for: env.request("/slow"), listener: staying) }
        await eventually { leaving.names.contains("fetch1") && staying.names.contains("fetch1") }
        first.cancel()
        _ = await first.result
        gate.open()
        _ = try await second.value
        await env.loader.waitForPendingWrites()
        #expect(leaving.names.suffix(2) == ["fetchCancelled1", "cancelled"])
        #expect(leaving.names.filter { $0.hasPrefix("fetch") } == ["fetch1", "fetchCancelled1"])
        #expect(staying.names.filter { $0.hasPrefix("fetch") } == ["fetch1", "fetched1"])
        #expect(env.transport.callCount == 1)
    }

    @Test func aDataCacheHitNamesTheCacheThatAnswered() async throws {
        for (name, expected) in [(nil, "FakeDataCache"), ("shelf", "shelf")] as [(String?, String)] {
            let cache = FakeDataCache()
            let transport = FakeTransport()
            var builder = PluginRegistry.Builder()
            builder.add(transport)
            builder.add(FakeDecoder())
            if let name { builder.setDataCache(cache, named: name) } else { builder.dataCache = cache }
            let loader = ImageLoader(registry: builder.build())
            let request = ImageRequest(url: URL(string: "fake://host/a")!)
            cache.put(
                DataCacheEntry(data: FakeDecoder.encode(), metadata: CacheMetadata(expires: Date() + 86_400)),
                for: request.dataCacheKey)
            let recorder = EventRecorder()
            let response = try await loader.image(for: request, listener: recorder)
            let layers = recorder.recorded.compactMap {
                if case .dataCacheHit(_, let layer) = $0.kind { layer } else { nil }
            }
            #expect(layers == [expected])
            #expect(response.origin == .dataCache && response.cacheLayer == expected)
            #expect(transport.callCount == 0)
        }
    }

    @Test func loadNumbersAreUniqueAcrossLoaders() async throws {
        let recorder = EventRecorder()
        let first = FakeEnvironment()
        let second = FakeEnvironment()
        for env in [first, second] { env.transport.serve("/a", data: FakeDecoder.encode()) }
        _ = try await first.loader.image(for: first.request("/a"), listener: recorder)
        _ = try await second.loader.image(for: second.request("/a"), listener: recorder)
        _ = try await first.loader.image(for: first.request("/a"), listener: recorder)
        let ids = recorder.recorded.filter { $0.kind.testName == "started" }.map(\.loadID)
        #expect(ids.count == 3 && Set(ids).count == 3)
    }
}
