import Foundation
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoCore

@Suite struct ImageLoaderTests {
    @Test func loadsThroughTransportAndDecoder() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode(width: 4, height: 3))
        let response = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(response.origin == .network)
        #expect(response.attempts == 1)
        #expect(response.image.width == 4 && response.image.height == 3)
        #expect(response.image.raster[0, 0] == RGBA(200, 100, 50))
        #expect(response.metrics.byteCount == FakeDecoder.encode().count)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 1)
    }

    @Test func secondLoadIsAMemoryHit() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        let second = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(second.origin == .memory)
        #expect(second.attempts == 0)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 1)
        #expect(env.loader.statistics.memoryHits == 1)
    }

    @Test func diskHitWhenMemoryIsEmpty() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        env.imageCache.removeAll()
        let second = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(second.origin == .dataCache)
        #expect(env.transport.callCount == 1)
        #expect(env.decoder.decodeCount == 2)
    }

    @Test func unsupportedScheme() async throws {
        let env = FakeEnvironment()
        let request = ImageRequest(url: URL(string: "gopher://host/a")!)
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: request) }
        #expect(error?.kind == .unsupportedScheme)
        #expect(error?.source == "gopher://host/a")
    }

    @Test func unknownFormatIsNotAnImage() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/text", data: Data("hello, world".utf8))
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/text")) }
        #expect(error?.kind == .decodingFailed(format: nil))
        #expect(error?.reason == "not an image: unknown format")
    }

    @Test func loaderLimitsReachTheDecoder() async throws {
        var settings = LoaderSettings()
        settings.limits.maxPixels = 10
        let env = FakeEnvironment(settings: settings)
        env.transport.serve("/big", data: FakeDecoder.encode(width: 5, height: 5))
        let error = await #expect(throws: ImagoError.self) { try await env.loader.image(for: env.request("/big")) }
        #expect(error?.kind == .limitExceeded)
        #expect(env.decoder.options.first?.limits.maxPixels == 10)
    }

    @Test func orientationIsAppliedAndScaleCarried() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/rotated", data: FakeDecoder.encode(width: 4, height: 2, orientation: 6))
        var request = env.request("/rotated")
        request.scale = 2
        let response = try await env.loader.image(for: request)
        await env.loader.waitForPendingWrites()
        #expect(response.image.width == 2 && response.image.height == 4)
        #expect(response.image.orientation == .up)
        #expect(response.image.scale == 2)
        #expect(response.image.pointSize == (1, 2))

        var stored = env.request("/rotated")
        stored.appliesOrientation = false
        let kept = try await env.loader.image(for: stored)
        await env.loader.waitForPendingWrites()
        #expect(kept.image.width == 4 && kept.image.orientation == .right)
    }

    @Test func targetSizeIsPassedToTheDecoder() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        var request = env.request("/a")
        request.decodeOptions.targetSize = PixelSize(width: 2, height: 2)
        _ = try await env.loader.image(for: request)
        await env.loader.waitForPendingWrites()
        #expect(env.decoder.options.first?.targetSize == PixelSize(width: 2, height: 2))
    }

    @Test func aLeadingResizeGivesTheDecoderATargetSize() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode(width: 40, height: 20))
        var request = env.request("/a")
        request.processors = [ResizeProcessor(width: 10, height: 4)]
        let response = try await env.loader.image(for: request)
        await env.loader.waitForPendingWrites()
        // The resize's own size, upright (decoders turn it for an EXIF orientation that swaps the sides).
        #expect(env.decoder.options.first?.targetSize == PixelSize(width: 10, height: 4))
        #expect(env.decoder.options.first?.targetIsUpright == true)
        #expect(env.decoder.options.first?.contentMode == .fill)
        #expect(response.image.width == 8 && response.image.height == 4)

        // An explicit target size wins.
        var explicit = env.request("/a")
        explicit.processors = [ResizeProcessor(width: 10, height: 4)]
        explicit.decodeOptions.targetSize = PixelSize(width: 30, height: 30)
        _ = try await env.loader.image(for: explicit)
        await env.loader.waitForPendingWrites()
        #expect(env.decoder.options.last?.targetSize == PixelSize(width: 30, height: 30))
    }

    @Test func progressReportsBytes() async throws {
        let env = FakeEnvironment()
        let data = FakeDecoder.encode(padding: 100)
        env.transport.serve("/a", FakeTransport.Behavior(data: data, chunkSize: 20))
        let updates = Updates<FetchProgress>()
        _ = try await env.loader.image(for: env.request("/a")) { updates.append($0) }
        let values = updates.values
        #expect(values.count >= 5)
        #expect(values.last == FetchProgress(received: Int64(data.count), expected: Int64(data.count)))
        #expect(values.map(\.received) == values.map(\.received).sorted())
    }

    @Test func taskHandleReportsProgressAndResponse() async throws {
        let env = FakeEnvironment()
        let data = FakeDecoder.encode(padding: 40)
        env.transport.serve("/a", FakeTransport.Behavior(data: data, chunkSize: 10))
        let task = env.loader.task(for: env.request("/a"))
        var received: [Int64] = []
        for await progress in task.progress { received.append(progress.received) }
        let response = try await task.response
        #expect(response.origin == .network)
        #expect(received.last == Int64(data.count))
    }

    @Test func removeAllCachesEmptiesBoth() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        _ = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        await env.loader.removeAllCaches()
        #expect(env.loader.cachedImage(for: env.request("/a")) == nil)
        #expect(env.dataCache.peek(env.request("/a").dataCacheKey) == nil)
        let again = try await env.loader.image(for: env.request("/a"))
        await env.loader.waitForPendingWrites()
        #expect(again.origin == .network)
    }
}
