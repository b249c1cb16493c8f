import Foundation
import Imago
import ImagoTestSupport
import Testing

/// Progressive previews end to end: the HTTP transport, the real codecs, a server that trickles the bytes.
@Suite(.serialized) final class ProgressiveLoadingTests {
    let server: TricklingServer

    init() throws { server = try TricklingServer(folder: ProgressiveFixtures.folder) }

    deinit { server.stop() }

    func makeLoader() -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(CurlTransport())  // the default HTTP transport on Linux
        builder.add(Codec(decoder: PNGCodec(), encoder: PNGCodec()))
        builder.add(Codec(decoder: JPEGCodec(), encoder: JPEGCodec()))
        builder.imageCache = MemoryImageCache()
        let registry = builder.build()
        return ImageLoader(registry: registry)
    }

    /// Every response of a load, each with when it arrived.
    func load(_ loader: ImageLoader, _ request: ImageRequest, policy: PreviewPolicy = PreviewPolicy()) async throws
        -> [(response: ImageResponse, at: Date)]
    {
        var responses: [(ImageResponse, Date)] = []
        for try await response in loader.responses(for: request, previews: policy) {
            responses.append((response, Date()))
        }
        return responses
    }

    @Test func aTrickledProgressiveJPEGGivesEarlyPreviewsAndTheOneShotFinal() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let id = "jpeg-\(UUID())"
        // After half the file (its scans up to 47% complete) the server drips 1 KB a second until the first
        // preview has been seen, and again after 62% (scans to 59%) until the second: "early" is an order of
        // events, not a race between the decoder and the clock. Only a loader that waited for ~13 s of drip (or
        // the whole file) would see 60% sent before its first preview.
        let holds = [data.count / 2, data.count * 62 / 100]
        let request = ImageRequest(
            url: server.url(
                ProgressiveFixtures.progressiveJPEG, rate: data.count / 2, chunk: 2048, holds: holds, id: id))
        let loader = makeLoader()
        var previews: [ImageResponse] = []
        var sentAtFirstPreview: Int?
        var last: ImageResponse?
        // A whole core for previews: on a loaded machine the default tenth can space them out past the end of
        // the file; the CPU budget has tests of its own (ImageLoaderPreviewTests).
        for try await response in loader.responses(for: request, previews: PreviewPolicy(cpuShare: 1)) {
            guard response.isPreview else {
                last = response
                continue
            }
            previews.append(response)
            if previews.count == 1 { sentAtFirstPreview = try await server.sendLog(id: id).last?.bytes ?? 0 }
            if previews.count <= holds.count { try await server.release(id: id) }
        }
        let first = try #require(previews.first)
        let final = try #require(last)
        #expect(!final.isPreview)
        #expect(previews.count >= 2)
        // The first preview was shown before the server had sent 60% of the file.
        #expect(first.metrics.byteCount < data.count * 6 / 10)
        #expect(try #require(sentAtFirstPreview) < data.count * 6 / 10)
        #expect(previews.allSatisfy { $0.image.width == 640 && $0.image.height == 480 })
        #expect(final.image == (try JPEGCodec().decode(data)))
        #expect(loader.previewStatistics.incrementalFinals == 1)
        #expect(loader.statistics.decodes == 1)
        #expect(loader.cachedImage(for: request) == final.image)
    }

    /// Docs/Previews.md's sample, as written there (with a trickled URL and a recording `show`).
    @Test func theDocsSampleShowsPreviewsThenTheFinal() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        // Six seconds of trickle: the sample keeps the default preview CPU share (a tenth of a core), which on a
        // loaded machine spaced the previews past the end of a two-second file.
        let photoURL = server.url(ProgressiveFixtures.progressiveJPEG, rate: data.count / 6, id: "docs-\(UUID())")
        var shown: [(width: Int, animated: Bool)] = []
        func show(_ image: DecodedImage, animated: Bool) { shown.append((image.width, animated)) }

        let loader = ImageLoader.standard()
        let request = ImageRequest(url: photoURL, processors: [ResizeProcessor(width: 800, height: 800)])
        for try await response in loader.responses(for: request) {
            if response.isPreview {
                show(response.image, animated: false)  // processed like the final image: the same size
            } else {
                show(response.image, animated: true)  // the final image; the sequence ends after it
            }
        }
        #expect(shown.count >= 2)
        #expect(shown.dropLast().allSatisfy { !$0.animated } && shown.last?.animated == true)
        #expect(shown.allSatisfy { $0.width == 640 })
    }

    @Test func aTrickledAdam7PNGGivesAPreview() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.adam7PNG)
        let request = ImageRequest(
            url: server.url(ProgressiveFixtures.adam7PNG, rate: data.count, chunk: 4096, id: "png-\(UUID())"))
        let loader = makeLoader()
        let responses = try await load(loader, request)
        #expect(responses.filter { $0.response.isPreview }.count >= 1)
        let final = try #require(responses.last?.response)
        #expect(!final.isPreview)
        #expect(final.image == (try PNGCodec().decode(data)))
    }

    @Test func theSameFileSentAtOnceGivesNoPreview() async throws {
        for name in [ProgressiveFixtures.progressiveJPEG, ProgressiveFixtures.adam7PNG] {
            let request = ImageRequest(url: server.url(name, rate: 0, id: "once-\(UUID())"))
            let loader = makeLoader()
            let responses = try await load(loader, request)
            #expect(responses.count == 1, "\(name)")
            #expect(responses.first?.response.isPreview == false)
        }
    }

    @Test func previewsThroughAResizeHaveTheFinalSize() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        var request = ImageRequest(
            url: server.url(ProgressiveFixtures.progressiveJPEG, rate: data.count / 2, chunk: 2048, id: "\(UUID())"))
        request.processors = [ResizeProcessor(width: 200, height: 200)]
        let loader = makeLoader()
        // A debug build resizes slowly: a generous CPU share keeps the throttle from hiding every preview.
        let responses = try await load(loader, request, policy: PreviewPolicy(cpuShare: 1))
        #expect(responses.filter { $0.response.isPreview }.count >= 1)
        #expect(responses.allSatisfy { $0.response.image.width == 200 && $0.response.image.height == 150 })
        // The final is what a plain load of the whole bytes gives.
        let plain = try await makeLoader().image(
            for: ImageRequest(
                url: server.url(ProgressiveFixtures.progressiveJPEG, rate: 0, id: "\(UUID())"),
                processors: [ResizeProcessor(width: 200, height: 200)]))
        #expect(responses.last?.response.image == plain.image)
    }

    @Test func cancellingMidStreamStopsTheDecoder() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let id = "cancel-\(UUID())"
        // Slow enough that the load is far from done when it is cancelled.
        let request = ImageRequest(
            url: server.url(ProgressiveFixtures.progressiveJPEG, rate: data.count / 8, chunk: 1024, id: id))
        let loader = makeLoader()
        let seen = PreviewTestValue(0)
        let consumer = Task {
            for try await response in loader.responses(for: request) where response.isPreview {
                seen.withLock { $0 += 1 }
            }
        }
        // Wait for the first preview by a wall-clock limit, not a count of sleeps a busy machine stretches.
        let giveUp = ContinuousClock.now + .seconds(20)
        while seen.withLock({ $0 }) == 0, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(10)) }
        #expect(seen.withLock { $0 } >= 1)
        #expect(loader.previewStatistics.liveDecoders == 1)
        consumer.cancel()
        try? await consumer.value
        let stopBy = ContinuousClock.now + .seconds(10)
        while loader.previewStatistics.liveDecoders > 0, ContinuousClock.now < stopBy {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(loader.previewStatistics.liveDecoders == 0)
        #expect(loader.cachedImage(for: request) == nil)
        // The transfer stopped: the server sent far from every byte.
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect((try await server.sendLog(id: id).last?.bytes ?? 0) < data.count)
    }

    @Test func aTruncatedProgressiveJPEGFailsAfterItsPreviews() async throws {
        let data = try ProgressiveFixtures.data(ProgressiveFixtures.progressiveJPEG)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-progressive-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try data.prefix(data.count * 7 / 10).write(to: folder.appendingPathComponent("cut.jpg"))
        let cutServer = try TricklingServer(folder: folder)
        defer { cutServer.stop() }
        // The server drips after half the file until a preview has been seen, so a starved client that took
        // every chunk at once still gets one; then the rest comes, and the cut end fails the load.
        let request = ImageRequest(
            url: cutServer.url("cut.jpg", rate: data.count, chunk: 2048, holds: [data.count / 2], id: "cut"))
        let loader = makeLoader()
        let previews = PreviewTestValue(0)
        let error = await #expect(throws: ImagoError.self) {
            for try await response in loader.responses(for: request) where response.isPreview {
                let count = previews.withLock { value in
                    value += 1
                    return value
                }
                if count == 1 { try await cutServer.release(id: "cut") }
            }
        }
        #expect(error?.kind == .decodingFailed(format: .jpeg))
        #expect(previews.withLock { $0 } >= 1)
        #expect(loader.previewStatistics.liveDecoders == 0)
    }
}

/// A value behind a lock, for counting from tasks.
final class PreviewTestValue<Value: Sendable>: @unchecked Sendable {  // Every access holds `lock`.
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
