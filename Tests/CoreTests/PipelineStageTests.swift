import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

/// A user's thumbnail processor that knows the size it needs, without being a `ResizeProcessor`.
private struct ThumbnailProcessor: SizeAwareProcessor {
    let side: Int
    var identifier: String { "thumbnail(\(side))" }
    var decodeSizeNeed: DecodeSizeNeed { .covering(PixelSize(width: side, height: side)) }
    func process(_ image: DecodedImage) throws -> DecodedImage { image }
}

/// A colour change: any decoded size will do.
private struct TintProcessor: SizeAwareProcessor {
    var identifier: String { "tint" }
    var decodeSizeNeed: DecodeSizeNeed { .anySize }
    func process(_ image: DecodedImage) throws -> DecodedImage { image }
}

@Suite struct PipelineStageTests {
    @Test func anySizeAwareProcessorGivesTheDecodeTarget() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        var request = env.request("/a")
        request.processors = [TintProcessor(), ThumbnailProcessor(side: 2)]
        _ = try await env.loader.image(for: request)
        #expect(env.decoder.options.last?.targetSize == PixelSize(width: 2, height: 2))
        #expect(env.decoder.options.last?.contentMode == .fill)
    }

    @Test func aProcessorThatNeedsTheFullImageStopsTheTarget() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        var request = env.request("/a")
        request.processors = [CropProcessor(x: 0, y: 0, width: 2, height: 2), ThumbnailProcessor(side: 1)]
        _ = try await env.loader.image(for: request)
        #expect(env.decoder.options.last?.targetSize == nil)

        var unknown = env.request("/a")
        unknown.processors = [CountingProcessor(name: "x", counter: Counter()), ResizeProcessor(width: 1, height: 1)]
        _ = try await env.loader.image(for: unknown)
        #expect(env.decoder.options.last?.targetSize == nil)
    }

    @Test func dataForARequestFetchesOnceAndIsThenServedByTheDataCache() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        #expect(try await env.loader.data(for: env.request("/a")) == FakeDecoder.encode())
        #expect(try await env.loader.data(for: env.request("/a")) == FakeDecoder.encode())
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 0)
        let error = await #expect(throws: ImagoError.self) { _ = try await env.loader.data(for: env.request("/none")) }
        #expect(error?.statusCode == 404)
        #expect(error?.attempts == 1)
    }

    @Test func aRegistryDerivedFromAnotherLeavesTheFirstLoaderAsItWas() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        let other = FakeTransport()
        other.serve("/a", data: FakeDecoder.encode(width: 6))
        var builder = PluginRegistry.Builder(env.registry)
        builder.add(other)
        let derived = ImageLoader(registry: builder.build())
        #expect(try await env.loader.image(for: env.request("/a", policy: .none)).image.width == 4)
        #expect(try await derived.image(for: env.request("/a", policy: .none)).image.width == 6)
        #expect(env.transport.callCount == 1 && other.callCount == 1)
        #expect(env.loader.registry.transports.count == 1 && derived.registry.transports.count == 2)
    }
}
