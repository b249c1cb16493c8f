import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

/// Rewrites every source to a CDN host, as an app's interceptor does.
private struct CDNInterceptor: ImageInterceptor {
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        var request = chain.request
        request.url = URL(string: request.url.absoluteString.replacingOccurrences(of: "//host/", with: "//cdn/"))!
        return try await chain.proceed(request)
    }
}

/// What a view sees of the loader's promises (issue 34, item 5).
@MainActor
@Suite(.serialized) struct ImageModelPromisesTests {
    @Test func progressIsCompleteWhenThePhaseIsSuccess() async throws {
        let gate = AsyncGate()
        let data = FakeDecoder.encode()
        var builder = PluginRegistry.Builder()
        builder.add(PausingTransport(data: data, split: data.count - 4, gate: gate))
        builder.add(FakeDecoder())
        let model = ImageModel(
            loader: ImageLoader(registry: builder.build()),
            request: ImageRequest(url: URL(string: "pausing://host/a")!))
        var progressAtSuccess: [FetchProgress?] = []
        model.onPhaseChange { phase, _ in if phase.image != nil { progressAtSuccess.append(model.progress) } }
        model.load()
        // The first part has reached the view; the rest arrives right after, within the same frame, so the
        // coalescer still holds its report back when the image is delivered.
        let first = Int64(data.count - 4)
        await waitUntil { model.progress?.received == first }
        #expect(model.progress?.received == first)
        gate.open()
        await waitUntil { model.phase.image != nil }
        let total = Int64(data.count)
        #expect(progressAtSuccess.count == 1)
        #expect(progressAtSuccess.first??.received == total && progressAtSuccess.first??.expected == total)
        try await Task.sleep(nanoseconds: 50_000_000)  // a late report must not take it back
        #expect(model.progress?.received == total && model.progress?.fraction == 1)
    }

    @Test func aSecondModelOfARequestAnInterceptorRewroteShowsTheImageAtOnce() async throws {
        let env = FakeEnvironment(interceptors: [CDNInterceptor()])
        env.transport.serve("/a", data: FakeDecoder.encode())
        let request = env.request("/a")
        let first = ImageModel(loader: env.loader, request: request)
        first.load()
        await waitUntil { first.phase.image != nil }
        #expect(env.transport.requests.map(\.url.host) == ["cdn"])
        let second = ImageModel(loader: env.loader, request: request)
        second.load()
        #expect(second.phase.origin == .memory, "the second model showed \(second.phase) first")
        #expect(!second.isLoading)
    }
}
