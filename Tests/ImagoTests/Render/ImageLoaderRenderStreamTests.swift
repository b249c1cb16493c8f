import Foundation
import Imago
import Testing

/// The render path's streamed branch (issue 33): frame counts and durations (checked by Imago's decoders and by
/// Pillow), the same frames as the all-frames encode, resizing, and the cases that do not stream.
@Suite struct ImageLoaderRenderStreamTests {
    let rig = RenderRig()
    let durations = [0.04, 0.05, 0.06, 0.04, 0.05]

    @Test(arguments: [(ImageFormat.gif, ImageFormat.webp), (.gif, .gif), (.webp, .gif)])
    func conversionsKeepEveryFrameDurationAndLoopAsPillowReadsThem(from: ImageFormat, to: ImageFormat) async throws {
        let animation = try AnimationFixtures.animation(frames: 5)
        let registry = rig.registry
        let source = try #require(registry.encoder(for: from)).encode(animation, options: EncodeOptions(lossless: true))
        let output = try await rig.render(source, to: to)
        #expect(output.streamed && output.frameCount == 5)
        let decoded = try #require(registry.decoder(for: to)).decode(output.data)
        #expect(decoded.frames.map(\.raster) == animation.frames.map(\.raster))
        #expect(decoded.durations == durations)
        #expect(decoded.loopCount == 3)
        let pillow = try AnimationFixtures.pillowFrames(output.data)
        #expect(pillow.count == 5)
        #expect(pillow.durations == [40, 50, 60, 40, 50])
    }

    @Test func gifToAVIFKeepsEveryFrameAndDuration() async throws {
        let animation = try AnimationFixtures.animation(frames: 4)
        let output = try await rig.render(try GIFCodec().encode(animation), to: .avif)
        let decoded = try AVIFCodec().decode(output.data)
        #expect(output.streamed && decoded.frames.count == 4)
        #expect(decoded.durations.map { Int(($0 * 1000).rounded()) } == [40, 50, 60, 40])
    }

    @Test(arguments: [ImageFormat.gif, .webp, .avif])
    func streamingGivesTheFramesOfTheAllFramesEncode(format: ImageFormat) async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 4))
        let resize = ResizeProcessor(width: 24, height: 24)
        let streamed = try await rig.render(gif, to: format, processors: [resize])
        #expect(streamed.streamed)
        // The all-frames way: every frame decoded, resized together, encoded in one call.
        let whole = try resize.process(try GIFCodec().decode(gif))
        let encoder = try #require(rig.registry.encoder(for: format))
        let allFrames = try encoder.encode(whole, options: EncodeOptions(lossless: true))
        let decoder = try #require(rig.registry.decoder(for: format))
        let (a, b) = (try decoder.decode(streamed.data), try decoder.decode(allFrames))
        #expect(a.frames.count == 4)
        #expect(a.frames.map(\.raster) == b.frames.map(\.raster))
        #expect(a.durations == b.durations)
        #expect(a.width == 24 && a.height == 16)
    }

    @Test func anAnimationWithoutANamedFormatStreamsIntoItsOwn() async throws {
        // The format is settled from the source before anything is decoded: GIF in, GIF out, frame by frame.
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let output = try await rig.render(gif, to: nil)
        #expect(output.streamed && output.format == .gif && output.frameCount == 5)
        // A still source keeps its format too, decoded whole.
        let png = try PNGCodec().encode(try AnimationFixtures.animation(frames: 1))
        let still = try await rig.render(png, to: nil)
        #expect(!still.streamed && still.format == .png)
    }

    @Test func framesAreTurnedUprightByTheWebPsEXIFOrientation() async throws {
        let animation = try AnimationFixtures.animation(frames: 3)
        let rotated = AnimationFixtures.withEXIFOrientation(
            try WebPCodec().encode(animation, options: EncodeOptions(lossless: true)), 6)
        let decoded = try WebPCodec().decode(rotated)
        #expect(decoded.orientation == .right)
        let output = try await rig.render(rotated, to: .gif)
        let upright = try OrientationProcessor().process(decoded)
        let written = try GIFCodec().decode(output.data)
        #expect(output.streamed && written.width == 32 && written.height == 48)
        #expect(written.frames.map(\.raster) == upright.frames.map(\.raster))
        let asStored = try await rig.render(rotated, to: .gif, appliesOrientation: false)
        let stored = try GIFCodec().decode(asStored.data)
        #expect(stored.width == 48 && stored.height == 32)
    }

    @Test func whatCannotStreamIsDecodedWhole() async throws {
        let still = try GIFCodec().encode(try AnimationFixtures.animation(frames: 1))
        #expect(try await !rig.render(still, to: .webp).streamed)
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 3))
        let smart = ResizeProcessor(width: 10, height: 10, mode: .fill, gravity: .smart)
        let whole = try await rig.render(gif, to: .webp, processors: [smart])
        #expect(!whole.streamed && whole.frameCount == 3)
        #expect(![smart as any ImageProcessor].processFramesIndependently)
        #expect(![try TrimProcessor(threshold: 10) as any ImageProcessor].processFramesIndependently)
        #expect(try !OptionsProcessor("w=10,h=10,fit=cover,g=sm").processesFramesIndependently)
        #expect(try OptionsProcessor("w=10,h=10,fit=cover").processesFramesIndependently)
    }

    @Test func aTruncatedAnimationWritesTheFramesThatDecodedWithOneWarning() async throws {
        let gif = try GIFCodec().encode(try AnimationFixtures.animation(frames: 5))
        let truncated = Data(gif.prefix(gif.count * 3 / 5))
        let output = try await rig.render(truncated, to: .webp)
        #expect(output.frameCount >= 1 && output.frameCount < 5)
        #expect(output.warnings.count == 1)
        #expect(try WebPCodec().decode(output.data).frames.count == output.frameCount)
    }
}
