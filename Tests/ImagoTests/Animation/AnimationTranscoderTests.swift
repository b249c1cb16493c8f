import Foundation
import Imago
import Testing

/// Streaming conversion: frame counts and durations (checked by Imago's decoders and by Pillow), the same frames as
/// the all-frames encode, resizing, and the cases that do not stream or are refused.
@Suite struct AnimationTranscoderTests {
    let registry = PluginRegistry.standard()
    let durations = [0.04, 0.05, 0.06, 0.04, 0.05]

    func transcode(
        _ data: Data, to format: ImageFormat, processors: [any ImageProcessor] = [],
        options: EncodeOptions = EncodeOptions(lossless: true), limits: DecodeLimits = .default
    ) throws -> AnimationTranscoder.Output? {
        try AnimationTranscoder.transcode(
            data, processors: processors, to: format, options: options, limits: limits, registry: registry)
    }

    @Test(arguments: [(ImageFormat.gif, ImageFormat.webp), (.gif, .gif), (.webp, .gif)])
    func conversionsKeepEveryFrameDurationAndLoopAsPillowReadsThem(from: ImageFormat, to: ImageFormat) throws {
        let animation = try AnimationFixtures.animation(frames: 5)
        let source = try #require(registry.encoder(for: from)).encode(animation, options: EncodeOptions(lossless: true))
        let output = try #require(try transcode(source, to: to))
        #expect(output.frameCount == 5)
        let decoded = try #require(registry.decoder(for: to)).decode(output.data)
        #expect(decoded.frames.map(\.raster) == animation.frames.map(\.raster))
        #expect(decoded.durations == durations)
        #expect(decoded.loopCount == 3)
        let pillow = try AnimationFixtures.pillowFrames(output.data)
        #expect(pillow.count == 5)
        #expect(pillow.durations == [40, 50, 60, 40, 50])
    }

    @Test func gifToAVIFKeepsEveryFrameAndDuration() throws {
        let animation = try AnimationFixtures.animation(frames: 4)
        let output = try #require(try transcode(try GIFCodec().encode(animation), to: .avif))
        let decoded = try AVIFCodec().decode(output.data)
        #expect(decoded.frames.count == 4)
        #expect(decoded.durations.map { Int(($0 * 1000).rounded()) } == [40, 50, 60, 40])
    }

    @Test(arguments: [ImageFormat.gif, .webp, .avif])
    func streamingGivesTheFramesOfTheAllFramesEncode(format: ImageFormat) throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 4))
        let resize = ResizeProcessor(width: 24, height: 24)
        let streamed = try #require(try transcode(gif, to: format, processors: [resize]))
        #expect(streamed.canvasSize == PixelSize(width: 24, height: 16))
        // The all-frames way: every frame decoded, resized together, encoded in one call.
        let whole = try resize.process(try GIFCodec().decode(gif))
        let encoder = try #require(registry.encoder(for: format))
        let allFrames = try encoder.encode(whole, options: EncodeOptions(lossless: true))
        let decoder = try #require(registry.decoder(for: format))
        let (a, b) = (try decoder.decode(streamed.data), try decoder.decode(allFrames))
        #expect(a.frames.count == 4)
        #expect(a.frames.map(\.raster) == b.frames.map(\.raster))
        #expect(a.durations == b.durations)
        #expect(a.width == 24 && a.height == 16)
    }

    @Test func aStreamedConversionWaitsItsTurnInThePixelBudget() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        var settings = LoaderSettings()
        settings.pixelMemoryBudget = 1 << 20
        let loader = ImageLoader(registry: registry, settings: settings)
        let held = try await loader.pixelBudget.reserve(bytes: 1 << 20)
        let request = ImageRequest(url: try #require(URL(string: "data:image/gif;base64,\(gif.base64EncodedString())")))
        let conversion = Task {
            try await AnimationTranscoder(loader: loader).load(
                request, to: .webp, options: EncodeOptions(lossless: true))
        }
        for _ in 0..<2000 where loader.pixelBudget.waitingCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(loader.pixelBudget.waitingCount == 1, "the conversion waits while the budget is spent")
        held.release()
        guard case .streamed(let output, _) = try await conversion.value else {
            Issue.record("the animation did not stream")
            return
        }
        #expect(output.frameCount == 5)
        #expect(loader.pixelBudget.usedBytes == 0, "its reservation is given back")
    }

    @Test func framesAreTurnedUprightByTheWebPsEXIFOrientation() throws {
        let animation = try AnimationFixtures.animation(frames: 3)
        let rotated = AnimationFixtures.withEXIFOrientation(
            try WebPCodec().encode(animation, options: EncodeOptions(lossless: true)), 6)
        let decoded = try WebPCodec().decode(rotated)
        #expect(decoded.orientation == .right)
        let output = try #require(try transcode(rotated, to: .gif))
        #expect(output.canvasSize == PixelSize(width: 32, height: 48))
        let upright = try OrientationProcessor().process(decoded)
        #expect(try GIFCodec().decode(output.data).frames.map(\.raster) == upright.frames.map(\.raster))
        let asStored = try #require(
            try AnimationTranscoder.transcode(
                rotated, processors: [], to: .gif, options: EncodeOptions(lossless: true), limits: .default,
                registry: registry, appliesOrientation: false))
        #expect(asStored.canvasSize == PixelSize(width: 48, height: 32))
    }

    @Test func aStillImageDoesNotStream() throws {
        let still = try GIFCodec().encode(try AnimationFixtures.animation(frames: 1))
        #expect(try transcode(still, to: .webp) == nil)
    }

    @Test func processorsThatLookAtTheFirstFrameDoNotStream() throws {
        let smart = ResizeProcessor(width: 10, height: 10, mode: .fill, gravity: .smart)
        let centred = ResizeProcessor(width: 10, height: 10, mode: .fill)
        #expect([centred as any ImageProcessor, FlipProcessor(.horizontal)].processFramesIndependently)
        #expect(![smart as any ImageProcessor].processFramesIndependently)
        #expect(![try TrimProcessor(threshold: 10) as any ImageProcessor].processFramesIndependently)
        #expect(try !OptionsProcessor("w=10,h=10,fit=cover,g=sm").processesFramesIndependently)
        #expect(try OptionsProcessor("w=10,h=10,fit=cover").processesFramesIndependently)
    }

    @Test func aTruncatedAnimationWritesTheFramesThatDecodedWithOneWarning() throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let truncated = gif.prefix(gif.count * 3 / 5)
        let output = try #require(try transcode(Data(truncated), to: .webp))
        #expect(output.frameCount >= 1 && output.frameCount < 5)
        #expect(output.warnings.count == 1)
        #expect(try WebPCodec().decode(output.data).frames.count == output.frameCount)
    }

    @Test func framesOverTheLimitsAreRefused() throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        #expect(throws: ImagoError.self) {
            try transcode(gif, to: .webp, limits: DecodeLimits(maxPixels: 100))
        }
        do {
            _ = try transcode(gif, to: .webp, limits: DecodeLimits(maxFrames: 3))
            Issue.record("five frames passed a limit of three")
        } catch let error as ImagoError {
            #expect(error.kind == .limitExceeded)
        }
    }

    @Test func manyFramesAreCountedWithoutKeepingThemAndConversionStopsAtMaxFrames() throws {
        let gif = AnimationFixtures.tinyFrameGIF(frames: 200_000)
        let info = try GIFCodec().animationInfo(gif, limits: .default)
        #expect(info.frameCount == 200_000)
        #expect(info.loopCount == 0)
        // 2 centiseconds play as they are (only 0 and 1 are raised to 0.1 s).
        #expect(abs(info.totalDuration - 4000) < 0.001)
        do {
            _ = try transcode(gif, to: .gif)
            Issue.record("200 000 frames passed the default limit of 10 000")
        } catch let error as ImagoError {
            #expect(error.kind == .limitExceeded)
        }
    }
}
