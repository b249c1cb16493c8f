import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// Records when it is entered and left, and passes the request on (changed by `change`, if given).
private struct TracingInterceptor: ImageInterceptor {
    let name: String
    let log: Updates<String>
    var change: (@Sendable (inout ImageRequest) -> Void)? = nil

    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        log.append("\(name)>")
        var request = chain.request
        change?(&request)
        defer { log.append("<\(name)") }
        return try await chain.proceed(request)
    }
}

/// Answers `fake://host/placeholder` itself, without the loader's stages.
private struct PlaceholderInterceptor: ImageInterceptor {
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        guard chain.request.url.path == "/placeholder" else { return try await chain.proceed() }
        let image = DecodedImage(raster: try Raster(width: 2, height: 2, fill: RGBA(9, 9, 9)), format: .png)
        return ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
    }
}

/// Tries the chain again once after a failure that is not a cancellation.
private struct RetryOnceInterceptor: ImageInterceptor {
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        do {
            return try await chain.proceed()
        } catch let error as ImagoError where error.kind != .cancelled {
            return try await chain.proceed()
        }
    }
}

private struct ForeignError: Error {}

private struct RejectingInterceptor: ImageInterceptor {
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse { throw ForeignError() }
}

@Suite struct ImageLoaderInterceptorTests {
    @Test func interceptorsRunInTheOrderAddedOnceEachAndSeeEarlierChanges() async throws {
        let log = Updates<String>()
        let seen = Mutex<[String]>([])
        let outer = TracingInterceptor(name: "outer", log: log) { $0.headers["X-Outer"] = "1" }
        let inner = TracingInterceptor(name: "inner", log: log) { request in
            seen.withLock { $0.append(request.headers["X-Outer"] ?? "-") }
            request.url = URL(string: "fake://host/b")!
        }
        let env = FakeEnvironment(interceptors: [outer, inner])
        env.transport.serve("/b", data: FakeDecoder.encode(width: 7))
        let response = try await env.loader.image(for: env.request("/a"))
        #expect(log.values == ["outer>", "inner>", "<inner", "<outer"])
        #expect(seen.withLock { $0 } == ["1"])
        #expect(response.image.width == 7 && response.request.url.path == "/b")
        #expect(env.transport.requests.map(\.url.path) == ["/b"])
        #expect(env.transport.requests.first?.headers["X-Outer"] == "1")
    }

    @Test func aMemoryHitSkipsTheInterceptorsAndAChangedRequestIsKeptUnderBothKeys() async throws {
        let log = Updates<String>()
        let env = FakeEnvironment(interceptors: [
            TracingInterceptor(name: "t", log: log) { $0.url = URL(string: "fake://host/b")! }
        ])
        env.transport.serve("/b", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        let again = try await env.loader.image(for: env.request("/a"))
        #expect(again.origin == .memory)
        #expect(log.values.count == 2, "the caller's own request was answered from memory, before any interceptor")
        #expect(env.transport.callCount == 1)
        let direct = try await env.loader.image(for: env.request("/b"))
        #expect(direct.origin == .memory && log.values.count == 2)
    }

    @Test func anInterceptorAnswersWithoutTheNetwork() async throws {
        let recorder = EventRecorder()
        let env = FakeEnvironment(interceptors: [PlaceholderInterceptor()])
        let response = try await env.loader.image(for: env.request("/placeholder"), listener: recorder)
        #expect(response.origin == .interceptor && response.image.width == 2)
        #expect(env.transport.callCount == 0 && env.decoder.decodeCount == 0)
        #expect(recorder.names == ["started", "memoryMiss", "finished"])
    }

    @Test func anInterceptorRetriesAFailedLoad() async throws {
        let env = FakeEnvironment(interceptors: [RetryOnceInterceptor()])
        env.transport.serve(
            "/a",
            FakeTransport.Behavior(
                data: FakeDecoder.encode(), failures: [ImagoError(.transportFailed(status: 404), "404 Not Found")]))
        let response = try await env.loader.image(for: env.request("/a"))
        #expect(response.image.width == 4)
        #expect(env.transport.callCount == 2, "the loader does not retry a 404 itself; the interceptor did")
    }

    @Test func aThrowingInterceptorFailsTheLoadWithATypedError() async throws {
        let recorder = EventRecorder()
        let env = FakeEnvironment(interceptors: [RejectingInterceptor()])
        env.transport.serve("/a", data: FakeDecoder.encode())
        let error = await #expect(throws: ImagoError.self) {
            _ = try await env.loader.image(for: env.request("/a"), listener: recorder)
        }
        #expect(error?.kind != .cancelled)
        #expect(error?.source == "fake://host/a")
        #expect(recorder.names == ["started", "memoryMiss", "failed"])
        #expect(env.transport.callCount == 0)
    }

    @Test func cancellationPassesThroughTheChainToTheFetch() async throws {
        let log = Updates<String>()
        let env = FakeEnvironment(interceptors: [TracingInterceptor(name: "t", log: log), RetryOnceInterceptor()])
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let load = Task { try await env.loader.image(for: env.request("/slow")) }
        await eventually { env.transport.callCount == 1 }
        load.cancel()
        let result = await load.result
        #expect(throws: ImagoError.self) { try result.get() }
        if case .failure(let error as ImagoError) = result { #expect(error.kind == .cancelled) }
        await eventually { env.transport.terminations == 1 }
        #expect(env.transport.terminations == 1)
        #expect(env.transport.callCount == 1, "a cancelled load is not retried by the interceptor")
        #expect(log.values == ["t>", "<t"])
        gate.open()
    }
}
