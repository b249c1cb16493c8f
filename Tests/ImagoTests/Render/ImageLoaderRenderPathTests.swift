import Foundation
import Imago
import Synchronization
import Testing

/// Interceptors and events apply to every render, streamed or not (issue 33, item 1).
@Suite struct ImageLoaderRenderPathTests {
    /// Counts the loads it sees; answers with `answer` when given.
    final class Watching: ImageInterceptor {
        let seen = Mutex<[String]>([])
        let answer: DecodedImage?

        init(answer: DecodedImage? = nil) { self.answer = answer }

        func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
            seen.withLock { $0.append(chain.request.url.absoluteString) }
            if let answer {
                return ImageResponse(image: answer, request: chain.request, origin: .interceptor, attempts: 0)
            }
            return try await chain.proceed()
        }
    }

    final class Events: ImageLoadEventListener, @unchecked Sendable {
        let kinds = Mutex<[String]>([])
        func receive(_ event: ImageLoadEvent) {
            let name =
                switch event.kind {
                case .started: "started"
                case .decoded: "decoded"
                case .processed: "processed"
                case .finished: "finished"
                case .failed: "failed"
                default: "other"
                }
            kinds.withLock { $0.append(name) }
        }
    }

    @Test func interceptorsEventsAndCountsSeeStreamedAndWholeRendersAlike() async throws {
        let interceptor = Watching()
        let events = Events()
        let rig = RenderRig(interceptors: [interceptor], listeners: [events])
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 4))
        let resize = ResizeProcessor(width: 24, height: 24)
        #expect(try await rig.render(gif, to: .webp, processors: [resize]).streamed)
        #expect(try await !rig.render(gif, to: .png, processors: [resize]).streamed)
        #expect(interceptor.seen.withLock { $0.count } == 2, "the interceptor saw both renders")
        #expect(
            events.kinds.withLock { $0 } == [
                "started", "decoded", "processed", "finished", "started", "decoded", "processed", "finished",
            ])
        #expect(rig.loader.statistics.decodes == 2, "a streamed conversion counts as a decode")
    }

    @Test func anInterceptorsAnswerIsEncoded() async throws {
        let image = DecodedImage(raster: try Raster(width: 5, height: 4, fill: RGBA(200, 0, 0)), format: .png)
        let rig = RenderRig(interceptors: [Watching(answer: image)])
        let result = try await rig.render(Data("not an image".utf8), to: .png)
        #expect(result.origin == .interceptor)
        let written = try PNGCodec().decode(result.data)
        #expect(written.width == 5 && written.height == 4 && written.raster[0, 0] == RGBA(200, 0, 0))
    }

    @Test func aDecodedRenderReportsTheSourceAsStoredAndTheImageUpright() async throws {
        let rotated = AnimationFixtures.withEXIFOrientation(
            try WebPCodec().encode(try AnimationFixtures.animation(frames: 2), options: EncodeOptions(lossless: true)),
            6)
        let result = try await RenderRig().render(rotated, to: nil, kind: .decoded)
        let image = try #require(result.image)
        #expect(result.sourceOrientation == .right && result.sourceFormat == .webp && result.frameCount == 2)
        #expect(image.width == 32 && image.height == 48 && image.orientation == .up)
        #expect(result.data.isEmpty && result.sourceByteCount == rotated.count)
    }
}
