import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderSchedulingTests {
    @Test func queuedRequestsStartInPriorityOrder() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 1))
        let gate = AsyncGate()
        env.transport.serve("/first", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let priorities: [(String, ImagePriority)] = [
            ("/low", .low), ("/high", .high), ("/normal", .normal), ("/veryHigh", .veryHigh), ("/veryLow", .veryLow),
            ("/high2", .high),
        ]
        for (path, _) in priorities { env.transport.serve(path, data: FakeDecoder.encode()) }
        let first = env.loader.task(for: env.request("/first"))
        await eventually { gate.waiterCount == 1 }
        var tasks: [ImageTask] = []
        for (path, priority) in priorities {
            tasks.append(env.loader.task(for: env.request(path, priority: priority)))
            // Queue them in this order, so ties show first come first served.
            await eventually { env.loader.loadLimiter.waitingCount == tasks.count }
        }
        gate.open()
        _ = try await first.response
        for task in tasks { _ = try await task.response }
        let order = env.transport.requests.map(\.url.path)
        #expect(order == ["/first", "/veryHigh", "/high", "/high2", "/normal", "/low", "/veryLow"])
    }

    @Test func aVisibleRequestRaisesAQueuedPrefetch() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 1))
        let gate = AsyncGate()
        env.transport.serve("/first", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        env.transport.serve("/prefetched", data: FakeDecoder.encode())
        env.transport.serve("/normal", data: FakeDecoder.encode())
        let first = env.loader.task(for: env.request("/first"))
        await eventually { gate.waiterCount == 1 }
        let prefetch = env.loader.prefetch([env.request("/prefetched")])
        await eventually { env.loader.loadLimiter.waitingCount == 1 }
        let normal = env.loader.task(for: env.request("/normal"))
        await eventually { env.loader.loadLimiter.waitingCount == 2 }
        let visible = env.loader.task(for: env.request("/prefetched", priority: .high))
        await eventually { env.loader.imageTasks.waiterCount == 4 }
        gate.open()
        _ = try await (first.response, normal.response, visible.response)
        await prefetch.wait()
        #expect(env.transport.requests.map(\.url.path) == ["/first", "/prefetched", "/normal"])
    }

    @Test func raisingATaskPriorityMovesItAhead() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 1))
        let gate = AsyncGate()
        env.transport.serve("/first", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        for path in ["/normal", "/low"] { env.transport.serve(path, data: FakeDecoder.encode()) }
        let first = env.loader.task(for: env.request("/first"))
        await eventually { gate.waiterCount == 1 }
        let normal = env.loader.task(for: env.request("/normal"))
        await eventually { env.loader.loadLimiter.waitingCount == 1 }
        let low = env.loader.task(for: env.request("/low", priority: .low))
        await eventually { env.loader.loadLimiter.waitingCount == 2 }
        low.priority = .veryHigh
        #expect(low.priority == .veryHigh)
        gate.open()
        _ = try await (first.response, normal.response, low.response)
        #expect(env.transport.requests.map(\.url.path) == ["/first", "/low", "/normal"])
    }

    @Test func perHostLimitIsKept() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 8, maxConcurrentLoadsPerHost: 2))
        let gate = AsyncGate()
        var requests: [ImageRequest] = []
        for index in 0..<6 {
            env.transport.serve("/a\(index)", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
            requests.append(ImageRequest(url: URL(string: "fake://one/a\(index)")!))
        }
        for index in 0..<2 {
            requests.append(ImageRequest(url: URL(string: "fake://two/a\(index)")!))
        }
        let tasks = requests.map { env.loader.task(for: $0) }
        await eventually { gate.waiterCount == 4 }
        #expect(env.transport.maxActive(host: "one") == 2)
        #expect(env.transport.maxActive(host: "two") == 2)
        #expect(env.loader.loadLimiter.waitingCount == 4)
        gate.open()
        for task in tasks { _ = try await task.response }
        #expect(env.transport.maxActive(host: "one") == 2)
        #expect(env.transport.callCount == 8)
    }

    @Test func globalLimitIsKept() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 3, maxConcurrentLoadsPerHost: 3))
        let gate = AsyncGate()
        var tasks: [ImageTask] = []
        for index in 0..<9 {
            env.transport.serve("/a\(index)", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
            tasks.append(env.loader.task(for: ImageRequest(url: URL(string: "fake://h\(index)/a\(index)")!)))
        }
        await eventually { gate.waiterCount == 3 && env.loader.loadLimiter.waitingCount == 6 }
        #expect(env.transport.maxActive == 3)
        gate.open()
        for task in tasks { _ = try await task.response }
        #expect(env.transport.maxActive == 3)
    }

    @Test func cancellingAQueuedRequestRemovesItFromTheQueue() async throws {
        let env = FakeEnvironment(settings: LoaderSettings(maxConcurrentLoads: 1))
        let gate = AsyncGate()
        env.transport.serve("/first", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        env.transport.serve("/queued", data: FakeDecoder.encode())
        let first = env.loader.task(for: env.request("/first"))
        await eventually { gate.waiterCount == 1 }
        let queued = env.loader.task(for: env.request("/queued"))
        await eventually { env.loader.loadLimiter.waitingCount == 1 }
        queued.cancel()
        let error = await #expect(throws: ImagoError.self) { _ = try await queued.response }
        #expect(error?.kind == .cancelled)
        await eventually { env.loader.loadLimiter.waitingCount == 0 }
        #expect(env.loader.loadLimiter.waitingCount == 0)
        gate.open()
        _ = try await first.response
        #expect(env.transport.requests.map(\.url.path) == ["/first"])
    }

    @Test func decodesAreBounded() async throws {
        let limiter = WorkLimiter(limit: 2)
        let peak = Updates<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await limiter.withSlot(priority: PriorityBox(.normal)) {
                        peak.append(limiter.activeCount)
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.values.count == 10)
        #expect(peak.values.allSatisfy { $0 <= 2 })
        #expect(limiter.activeCount == 0)
    }
}
