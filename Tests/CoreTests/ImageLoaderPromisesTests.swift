import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// Answers any failure, cancellation included, with a placeholder (the contract flags it; the loader must still
/// end a cancelled load as cancelled).
private struct PlaceholderOnAnyFailure: ImageInterceptor {
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        do {
            return try await chain.proceed()
        } catch {
            let image = DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(9, 9, 9)), format: .png)
            return ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
        }
    }
}

/// Waits until its load is cancelled, then passes it on and records what `proceed` threw.
private struct ProceedsOnceCancelled: ImageInterceptor {
    let thrown: Updates<String>
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        thrown.append("entered")
        for _ in 0..<60_000 where !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
        do {
            return try await chain.proceed()
        } catch {
            thrown.append((error as? ImagoError).map { "ImagoError(\($0.kind.name))" } ?? "\(type(of: error))")
            throw error
        }
    }
}

/// Changes the request as a CDN or an authenticating interceptor does.
private struct Rewriting: ImageInterceptor {
    let change: @Sendable (inout ImageRequest) -> Void
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        var request = chain.request
        change(&request)
        return try await chain.proceed(request)
    }
}

/// What Plugins.md and ImageLoadEvent promise, each checked where it used to fail (issue 34, item 5).
@Suite struct ImageLoaderPromisesTests {
    @Test func aCancelledLoadEndsCancelledEvenWhenAnInterceptorAnswersAfterwards() async throws {
        let env = FakeEnvironment(interceptors: [PlaceholderOnAnyFailure()])
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let recorder = EventRecorder()
        let load = Task { try await env.loader.image(for: env.request("/slow"), listener: recorder) }
        await eventually { env.transport.callCount == 1 }
        load.cancel()
        let result = await load.result
        gate.open()
        guard case .failure(let error) = result else {
            Issue.record("a cancelled load ended with an image (origin \(try result.get().origin))")
            return
        }
        #expect((error as? ImagoError)?.kind == .cancelled)
        #expect(recorder.names.last == "cancelled")
    }

    @Test func proceedOnACancelledLoadThrowsImagoErrorCancelled() async throws {
        let thrown = Updates<String>()
        let env = FakeEnvironment(interceptors: [ProceedsOnceCancelled(thrown: thrown)])
        env.transport.serve("/a", data: FakeDecoder.encode())
        let load = Task { try await env.loader.image(for: env.request("/a")) }
        await eventually { thrown.values == ["entered"] }
        load.cancel()
        let result = await load.result
        #expect(thrown.values == ["entered", "ImagoError(cancelled)"])
        #expect((result.failure as? ImagoError)?.kind == .cancelled)
        #expect(env.transport.callCount == 0)
    }

    @Test(arguments: ["cdn host", "processor"])
    func aRequestAnInterceptorChangedLeavesTheCallersRequestInTheMemoryCache(change: String) async throws {
        let rewrite = Rewriting { request in
            if change == "cdn host" {
                request.url = URL(
                    string: request.url.absoluteString.replacingOccurrences(of: "//host/", with: "//cdn/"))!
            } else {
                request.processors.append(StretchProcessor(width: 2, height: 2))
            }
        }
        let env = FakeEnvironment(interceptors: [rewrite])
        env.transport.serve("/a", data: FakeDecoder.encode())
        let request = env.request("/a")
        let response = try await env.loader.image(for: request)
        #expect(env.transport.requests.count == 1)
        // The view's own request (an ImageModel asks `cachedResponse(for:)` first) is answered from memory.
        let cached = try #require(env.loader.cachedResponse(for: request))
        #expect(cached.origin == .memory && cached.image == response.image)
        #expect(env.loader.cachedImage(for: request) != nil)
        let again = try await env.loader.image(for: request)
        #expect(again.origin == .memory && env.transport.requests.count == 1)
    }

    @Test func aCredentialAnInterceptorAddedDoesNotReachTheCallersUncredentialedKey() async throws {
        // A token added per user must not let a request without it (after a sign-out) see what it fetched.
        let env = FakeEnvironment(interceptors: [Rewriting { $0.headers["Authorization"] = "Bearer user-1" }])
        env.transport.serve("/a", data: FakeDecoder.encode())
        let request = env.request("/a")
        _ = try await env.loader.image(for: request)
        #expect(env.loader.cachedImage(for: request) == nil)
        #expect(env.transport.requests.first?.headers["Authorization"] == "Bearer user-1")
    }

    @Test(arguments: ["same request", "other processing"])
    func aLoadThatJoinsAFetchInFlightSeesItsStartBeforeItsEnd(joiner: String) async throws {
        let env = FakeEnvironment()
        let gate = AsyncGate()
        env.transport.serve("/slow", FakeTransport.Behavior(data: FakeDecoder.encode(), gate: gate))
        let first = EventRecorder()
        let joining = EventRecorder()
        let request = env.request("/slow")
        var joinerRequest = request
        if joiner == "other processing" { joinerRequest.processors = [StretchProcessor(width: 2, height: 2)] }
        let firstLoad = Task { try await env.loader.image(for: request, listener: first) }
        await eventually { first.names.contains("fetch1") }
        let secondLoad = Task { try await env.loader.image(for: joinerRequest, listener: joining) }
        await eventually { env.loader.fetchTasks.waiterCount == (joiner == "same request" ? 1 : 2) }
        await eventually { env.loader.imageTasks.waiterCount == 2 }
        gate.open()
        _ = try await (firstLoad.value, secondLoad.value)
        await env.loader.waitForPendingWrites()
        #expect(env.transport.callCount == 1, "the second load joined the first one's fetch")
        let fetchEvents = joining.names.filter { $0.hasPrefix("fetch") }
        #expect(fetchEvents == ["fetch1", "fetched1"], "\(joining.names)")
    }

    @Test(arguments: [false, true])
    func aCancelledAttemptReportsTheBytesItHadReceived(anotherLoadStays: Bool) async throws {
        let gate = AsyncGate()
        let data = FakeDecoder.encode() + Data(count: 60_000)
        let transport = PausingTransport(data: data, split: 49_152, gate: gate)
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(FakeDecoder())
        let loader = ImageLoader(registry: builder.build())
        let request = ImageRequest(url: URL(string: "pausing://host/a")!)
        let leaving = EventRecorder()
        let load = Task {
            try await loader.image(for: request, listener: leaving)
        }
        let staying = anotherLoadStays ? Task { try await loader.image(for: request) } : nil
        await eventually {
            leaving.recorded.contains {
                if case .bytesReceived(let p) = $0.kind { p.received == 49_152 } else { false }
            }
        }
        load.cancel()
        _ = await load.result
        gate.open()
        _ = await staying?.result
        let attempt = try #require(leaving.attempts.last)
        #expect(attempt.wasCancelled)
        #expect(
            attempt.byteCount == 49_152, "a cancelled attempt that had received 48 KiB reported \(attempt.byteCount)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
