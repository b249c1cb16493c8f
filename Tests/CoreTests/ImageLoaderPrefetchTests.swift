import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderPrefetchTests {
    @Test func prefetchFillsTheCachesAtLowPriority() async throws {
        let env = FakeEnvironment()
        for path in ["/a", "/b", "/c"] { env.transport.serve(path, data: FakeDecoder.encode()) }
        let handle = env.loader.prefetch(["/a", "/b", "/c"].map { env.request($0, priority: .high) })
        #expect(handle.count == 3)
        #expect(await handle.wait() == 3)
        await env.loader.waitForPendingWrites()
        #expect(env.imageCache.storeCount == 3)
        #expect(env.dataCache.storeCount == 3)
        let later = try await env.loader.image(for: env.request("/b"))
        #expect(later.origin == .memory)
        // Already in memory: nothing to start.
        #expect(env.loader.prefetch([env.request("/a")]).count == 0)
    }

    @Test func cancellingTheGroupStopsItsLoads() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        for path in ["/a", "/b"] {
            env.transport.serve(path, FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        }
        let handle = env.loader.prefetch([env.request("/a"), env.request("/b")])
        await eventually { gate.waiterCount == 2 }
        handle.cancel()
        #expect(await handle.wait() == 0)
        await eventually { env.transport.terminations == 2 }
        #expect(env.transport.terminations == 2)
        gate.open()
        #expect(env.decoder.decodeCount == 0)
    }

    @Test func cancellingAPrefetchKeepsAVisibleLoadOfTheSameImage() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let handle = env.loader.prefetch([env.request("/a")])
        await eventually { gate.waiterCount == 1 }
        let visible = env.loader.task(for: env.request("/a", priority: .high))
        await eventually { env.loader.imageTasks.waiterCount == 2 }
        handle.cancel()
        gate.open()
        let response = try await visible.response
        #expect(response.origin == .network)
        #expect(env.transport.callCount == 1)
        #expect(env.transport.terminations == 0)
    }
}
