import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

/// Decodes "FANI" bytes: `FANI`, width, height, frame count, loop count; frames of 20 ms whose red channel is their
/// index. All frames at once are bounded by the limits for the whole (`maxTotalPixels`); a frame source by each
/// frame's. Counts the all-frames decodes.
final class FakeAnimationDecoder: AnimatedImageDecoding {
    let format = ImageFormat("fani")
    let allFramesDecodes = Counter()

    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("FANI".utf8)) }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        allFramesDecodes.increment()
        let (size, frames, loopCount) = try header(data)
        try options.limits.check(frames: frames, width: size.width, height: size.height, format: format)
        let source = CountingFrameSource(
            durations: Array(repeating: 0.02, count: frames), loopCount: loopCount, size: size)
        var decoded: [ImageFrame] = []
        while let frame = try source.nextFrame() { decoded.append(frame) }
        return DecodedImage(frames: decoded, loopCount: loopCount, format: format, hasAlpha: false)
    }

    func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource {
        let (size, frames, loopCount) = try header(data)
        try options.limits.check(width: size.width, height: size.height, format: format)
        return CountingFrameSource(durations: Array(repeating: 0.02, count: frames), loopCount: loopCount, size: size)
    }

    private func header(_ data: Data) throws -> (PixelSize, frames: Int, loopCount: Int) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, bytes[6] > 0 else { throw ImagoError(.decodingFailed(format: format), "bad header") }
        return (PixelSize(width: Int(bytes[4]), height: Int(bytes[5])), Int(bytes[6]), Int(bytes[7]))
    }

    static func encode(width: Int, height: Int, frames: Int, loopCount: Int) -> Data {
        Data("FANI".utf8) + Data([UInt8(width), UInt8(height), UInt8(frames), UInt8(loopCount)])
    }
}

@MainActor
@Suite struct ImageModelOnDemandTests {
    /// A model over a loader whose limits hold 1000 pixels for all frames together, serving a 40-frame 8×8
    /// animation (2560 pixels) at `fake://host/anim`.
    static func model() -> (ImageModel, FakeTransport, FakeAnimationDecoder) {
        let transport = FakeTransport()
        let decoder = FakeAnimationDecoder()
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(decoder)
        builder.dataCache = FakeDataCache()
        let loader = ImageLoader(
            registry: builder.build(), settings: LoaderSettings(limits: DecodeLimits(maxTotalPixels: 1000)))
        transport.serve("/anim", data: FakeAnimationDecoder.encode(width: 8, height: 8, frames: 40, loopCount: 0))
        let model = ImageModel(loader: loader, request: ImageRequest(url: URL(string: "fake://host/anim")!))
        return (model, transport, decoder)
    }

    @Test func anAnimationTooLargeToHoldPlaysFrameByFrame() async throws {
        let (model, transport, decoder) = Self.model()
        model.load()
        while model.phase.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        let response = try #require(model.phase.response)
        #expect(response.image.frames.count == 1 && response.image.width == 8 && response.image.height == 8)
        #expect(response.image.raster.pixels[0] == 0, "the success phase shows the first frame")
        let player = try #require(model.player)
        #expect(player.image == nil && player.isPlaying && player.loopCount == 0)
        while player.framesShown < 3 { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(model.currentFrame == player.currentFrame)
        #expect(model.currentFrame?.raster.pixels[0] == UInt8(player.frameIndex))
        #expect(decoder.allFramesDecodes.count == 1, "the all-frames decode was refused, once")
        #expect(transport.callCount == 1, "the bytes were fetched once")
        model.request = nil
        #expect(model.player == nil && model.currentFrame == nil && !player.isPlaying)
    }

    /// The sample of Docs/Animation.md, "Playing in a view".
    @Test func aViewPausesAndResumesTheModelsAnimation() async throws {
        let (sample, _, _) = Self.model()
        let loader = sample.loader
        let request = try #require(sample.request)

        let model = ImageModel(loader: loader, request: request)
        model.animationFrames = .automatic  // frame by frame when too large to hold decoded
        model.load()
        // The view draws `model.currentFrame`, and pauses while it is not visible:
        model.player?.pause()
        model.player?.play()

        while model.player == nil { try await Task.sleep(nanoseconds: 5_000_000) }
        let player = try #require(model.player)
        player.pause()
        await player.clockStopped()
        let shown = player.framesShown
        #expect(!player.isPlaying && model.currentFrame == player.currentFrame)
        player.play()
        while player.framesShown == shown { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(model.currentFrame == player.currentFrame)
        player.pause()
    }

    @Test func withAllFramesAnAnimationTooLargeIsAFailure() async throws {
        let (model, _, _) = Self.model()
        model.animationFrames = .all
        model.load()
        while model.phase.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(model.phase.error?.kind == .limitExceeded)
        #expect(model.player == nil && model.currentFrame == nil)
    }
}
