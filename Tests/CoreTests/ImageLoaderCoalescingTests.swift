import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderCoalescingTests {
    @Test func fiftyIdenticalCallersShareOneFetchAndOneDecode() async throws {
        // No caches: only coalescing can spare the fetches.
        let env = FakeEnvironment(imageCache: false, dataCache: false)
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<50 { group.addTask { try await env.loader.image(for: env.request("/a")) } }
            await eventually { env.transport.callCount == 1 && gate.waiterCount == 1 }
            // Every caller joins before the fetch completes.
            await eventually { env.loader.imageTasks.waiterCount == 50 }
            #expect(env.loader.imageTasks.inFlightCount == 1)
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.count == 50)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 1)
        #expect(responses.allSatisfy { $0.image.width == 4 })
        #expect(env.loader.imageTasks.inFlightCount == 0)
        #expect(env.loader.statistics.decodes == 1)
        #expect(env.loader.statistics.transportAttempts == 1)
    }

    @Test func differentProcessorsShareTheFetchAndTheDecode() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let counter = Counter()
        var first = env.request("/a")
        first.processors = [CountingProcessor(name: "one", counter: counter)]
        var second = env.request("/a")
        second.processors = [CountingProcessor(name: "two", counter: counter)]
        async let a = env.loader.image(for: first)
        async let b = env.loader.image(for: second)
        await eventually { gate.waiterCount == 1 }
        gate.open()
        _ = try await (a, b)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 1)
        #expect(counter.count == 2)
        #expect(env.imageCache.keys.count == 2)
    }

    @Test func differentDecodeOptionsShareOnlyTheFetch() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        var small = env.request("/a")
        small.decodeOptions.targetSize = PixelSize(width: 1, height: 1)
        async let a = env.loader.image(for: env.request("/a"))
        async let b = env.loader.image(for: small)
        await eventually { gate.waiterCount == 1 }
        await eventually { env.loader.decodeTasks.inFlightCount == 2 }
        gate.open()
        _ = try await (a, b)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 2)
    }

    @Test func cancellingOneWaiterLeavesTheOthers() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let cancelled = env.loader.task(for: env.request("/a"))
        let others = (0..<3).map { _ in env.loader.task(for: env.request("/a")) }
        await eventually { gate.waiterCount == 1 }
        cancelled.cancel()
        // The cancelled caller is answered at once, while the fetch is still held at the gate.
        let error = await #expect(throws: ImagoError.self) { _ = try await cancelled.response }
        #expect(error?.kind == .cancelled)
        #expect(gate.waiterCount == 1)
        gate.open()
        for task in others {
            let response = try await task.response
            #expect(response.origin == .network)
        }
        #expect(env.transport.callCount == 1)
        #expect(env.transport.terminations == 0)
        #expect(env.decoder.decodeCount == 1)
    }

    @Test func cancellingEveryWaiterStopsTheTransportAndSkipsTheDecode() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        let data = FakeDecoder.encode(padding: 64)
        env.transport.serve("/a", FakeTransport.Behavior(data: data, chunkSize: 8, gate: gate))
        let tasks = (0..<3).map { _ in env.loader.task(for: env.request("/a")) }
        await eventually { gate.waiterCount == 1 }
        for task in tasks { task.cancel() }
        for task in tasks {
            let error = await #expect(throws: ImagoError.self) { _ = try await task.response }
            #expect(error?.kind == .cancelled)
        }
        await eventually { env.transport.terminations == 1 }
        #expect(env.transport.terminations == 1)
        gate.open()
        await eventually { env.loader.fetchTasks.inFlightCount == 0 }
        #expect(env.decoder.decodeCount == 0)
        #expect(env.imageCache.storeCount == 0)
    }

    @Test func swiftTaskCancellationAnswersCancelled() async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/a", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let task = Task { try await env.loader.image(for: env.request("/a")) }
        await eventually { gate.waiterCount == 1 }
        task.cancel()
        let error = await #expect(throws: ImagoError.self) { _ = try await task.value }
        #expect(error?.kind == .cancelled)
        await eventually { env.transport.terminations == 1 }
        #expect(env.transport.terminations == 1)
        gate.open()
    }

    @Test func alreadyCancelledCallerIsAnsweredWithoutFetching() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await env.loader.image(for: env.request("/a"))
        }
        let error = await #expect(throws: ImagoError.self) { _ = try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(env.transport.callCount == 0)
    }

    @Test func aLateCallerAfterCompletionStartsAfresh() async throws {
        let env = FakeEnvironment(imageCache: false, dataCache: false)
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        _ = try await env.loader.image(for: env.request("/a"))
        #expect(env.transport.callCount == 2)
        #expect(env.decoder.decodeCount == 2)
    }
}
