import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderEventsTests {
    static let unavailable = ImagoError(.transportFailed(status: 503), "503 Service Unavailable")

    @Test func aNetworkLoadReportsEveryStageInOrderThenAMemoryHit() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), chunkSize: 4))
        let recorder = EventRecorder()
        var request = env.request("/a")
        request.processors = [CountingProcessor(name: "p", counter: Counter())]
        _ = try await env.loader.image(for: request, listener: recorder)
        await env.loader.waitForPendingWrites()
        // The data-cache write runs beside the decode: its event comes after the fetch, in any place from there
        // (even after `finished`), exactly once.
        let names = recorder.names
        #expect(
            names.filter { $0 != "wrote:data" } == [
                "started", "memoryMiss", "dataMiss", "fetch1", "fetched1", "decoded", "processed", "wrote:memory",
                "finished",
            ])
        #expect(names.filter { $0 == "wrote:data" }.count == 1)
        #expect((names.firstIndex(of: "wrote:data") ?? 0) > (names.firstIndex(of: "fetched1") ?? names.count))
        let bytes = recorder.recorded.compactMap { if case .bytesReceived(let p) = $0.kind { p } else { nil } }
        #expect(bytes.last == FetchProgress(received: 11, expected: 11))
        #expect(bytes.count >= 3)
        let decoded = try #require(
            recorder.recorded.lazy.compactMap { if case .decoded(let d) = $0.kind { d } else { nil } }.first)
        #expect(decoded.format == ImageFormat("fake"))
        #expect(decoded.size == PixelSize(width: 4, height: 3))
        #expect(decoded.timing.queued >= 0 && decoded.timing.duration >= 0)
        #expect(Set(recorder.recorded.map(\.loadID)).count == 1)

        let again = EventRecorder()
        _ = try await env.loader.image(for: request, listener: again)
        await env.loader.waitForPendingWrites()
        #expect(again.names == ["started", "memoryHit", "finished"])
        #expect(again.recorded[0].loadID != recorder.recorded[0].loadID)
    }

    @Test func aFreshDataCacheEntryIsAHitWithoutAFetch() async throws {
        let env = FakeEnvironment()
        let request = env.request("/a")
        env.dataCache.put(
            DataCacheEntry(data: FakeDecoder.encode(), metadata: CacheMetadata(expires: Date() + 86_400)),
            for: request.dataCacheKey)
        let recorder = EventRecorder()
        let response = try await env.loader.image(for: request, listener: recorder)
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .dataCache)
        #expect(recorder.names == ["started", "memoryMiss", "dataHit", "decoded", "wrote:memory", "finished"])
        #expect(env.transport.callCount == 0)
    }

    @Test func loaderListenersHearEveryLoad() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(FakeDecoder())
        let registry = builder.build()
        let loader = ImageLoader(registry: registry, eventListeners: [recorder])
        let request = ImageRequest(url: URL(string: "fake://host/a")!)
        _ = try await loader.image(for: request)
        await loader.waitForPendingWrites()
        _ = try await loader.image(for: request)
        await loader.waitForPendingWrites()
        #expect(recorder.names.filter { $0 == "started" }.count == 2)
        #expect(recorder.names.filter { $0 == "decoded" }.count == 2)
    }

    @Test func eachAttemptReportsItsOutcomeAndTheRetryDelay() async throws {
        let env = FakeEnvironment()
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(), failures: [Self.unavailable, ImagoError(.connectionFailed, "reset")]))
        let recorder = EventRecorder()
        let response = try await env.loader.image(for: env.request("/a"), listener: recorder)
        await env.loader.waitForPendingWrites()
        #expect(response.attempts == 3)
        let attempts = recorder.attempts
        #expect(attempts.map(\.attempt) == [1, 2, 3])
        #expect(attempts[0].statusCode == 503)
        #expect(attempts[0].error?.kind == .transportFailed(status: 503))
        #expect(attempts[1].error?.kind == .connectionFailed)
        #expect(attempts[2].succeeded)
        #expect(attempts[2].byteCount == 11)
        #expect(attempts[2].retryDelay == nil)
        // The delays reported are the ones slept.
        #expect(attempts.compactMap(\.retryDelay) == env.sleeps.recorded)
        #expect(env.sleeps.recorded.count == 2)
    }

    @Test func aFailureCarriesTheAttemptsMade() async throws {
        var settings = LoaderSettings()
        settings.retry = RetryPolicy(maxAttempts: 3)
        let env = FakeEnvironment(settings: settings)
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(data: Data(), failures: [Self.unavailable, Self.unavailable, Self.unavailable]))
        let recorder = EventRecorder()
        let error = await #expect(throws: ImagoError.self) {
            _ = try await env.loader.image(for: env.request("/a"), listener: recorder)
        }
        #expect(error?.attempts == 3)
        #expect(recorder.failure?.attempts == 3)
        #expect(recorder.attempts.last?.retryDelay == nil)
        #expect(recorder.names.last == "failed")

        // Not found: one attempt, no retry.
        let notFound = await #expect(throws: ImagoError.self) { _ = try await env.loader.image(for: env.request("/b")) }
        #expect(notFound?.kind == .transportFailed(status: 404))
        #expect(notFound?.attempts == 1)
    }

    @Test func aDecodeFailureStillCountsTheFetch() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: Data("FAKE".utf8))
        let error = await #expect(throws: ImagoError.self) { _ = try await env.loader.image(for: env.request("/a")) }
        #expect(error?.kind == .decodingFailed(format: ImageFormat("fake")))
        #expect(error?.attempts == 1)
        #expect(env.transport.callCount == 1)
    }

    @Test(arguments: [
        ImagoError(.transportFailed(status: nil), "TLS certificate refused"),
        ImagoError(.transportFailed(status: 401), "401 Unauthorized"),
        ImagoError(.invalidSource, "invalid source"),
    ])
    func failuresThatCannotMendAreNotRetried(failure: ImagoError) async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), failures: [failure]))
        let error = await #expect(throws: ImagoError.self) { _ = try await env.loader.image(for: env.request("/a")) }
        #expect(error?.kind == failure.kind)
        #expect(env.transport.callCount == 1)
        #expect(env.sleeps.recorded.isEmpty)
    }

    @Test func cacheWriteFailuresAreEventsAndDoNotFailTheLoad() async throws {
        var builder = PluginRegistry.Builder()
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        builder.add(transport)
        builder.add(FakeDecoder())
        let cache = ReportingDataCache()
        builder.dataCache = cache
        let registry = builder.build()
        let recorder = EventRecorder()
        let loader = ImageLoader(registry: registry, eventListeners: [recorder])
        let response = try await loader.image(for: ImageRequest(url: URL(string: "fake://host/a")!))
        await loader.waitForPendingWrites()
        #expect(response.origin == .network)
        #expect(recorder.names.contains("dataReadFailed"))
        #expect(recorder.names.contains("writeFailed:data"))
        let failures = recorder.recorded.compactMap { event -> ImagoError? in
            switch event.kind {
            case .dataCacheReadFailed(let error), .cacheWriteFailed(_, let error): error
            default: nil
            }
        }
        #expect(failures.map(\.reason) == ["cannot read: server gone", "cannot write: server gone"])
    }

    @Test func aCancelledLoadEndsWithCancelled() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let recorder = EventRecorder()
        let loader = env.loader
        let request = env.request("/a")
        let task = Task { try await loader.image(for: request, listener: recorder) }
        await eventually { gate.waiterCount == 1 }
        task.cancel()
        _ = try? await task.value
        gate.open()
        #expect(recorder.names.last == "cancelled")
        #expect(recorder.names.first == "started")
    }

    @Test func coalescedLoadsEachHearTheSharedFetch() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let first = EventRecorder()
        let second = EventRecorder()
        let loader = env.loader
        let request = env.request("/a")
        async let a = loader.image(for: request, listener: first)
        async let b = loader.image(for: request, listener: second)
        await eventually { gate.waiterCount == 1 }
        await eventually { env.loader.imageTasks.waiterCount == 2 }
        gate.open()
        _ = try await (a, b)
        #expect(env.transport.callCount == 1)
        #expect(first.names.contains("fetched1"))
        #expect(second.names.contains("fetched1"))
        #expect(first.recorded[0].loadID != second.recorded[0].loadID)
    }
}

/// A data cache whose backing server is gone: reads report a failure and miss, writes throw.
final class ReportingDataCache: DataCache {
    func entry(for key: CacheKey) async -> DataCacheEntry? { nil }
    func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        failures.report(ImagoError(.cacheFailed, "cannot read: server gone"))
        return nil
    }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        throw ImagoError(.cacheFailed, "cannot write: server gone")
    }
    func removeEntry(for key: CacheKey) async {}
    func removeAll() async {}
}
