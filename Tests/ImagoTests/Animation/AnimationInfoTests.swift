import Foundation
import Imago
import Testing

/// Frame count, duration and loop count read from the files' structure, no pixel decoded.
@Suite struct AnimationInfoTests {
    @Test func gifWebPAndAVIFReportFramesDurationAndLoops() throws {
        let animation = try AnimationFixtures.animation(frames: 5, loopCount: 4)
        let lossless = EncodeOptions(lossless: true)
        let gif = try GIFCodec().animationInfo(try GIFCodec().encode(animation), limits: .default)
        let webp = try WebPCodec().animationInfo(try WebPCodec().encode(animation, options: lossless), limits: .default)
        let avif = try AVIFCodec().animationInfo(try AVIFCodec().encode(animation, options: lossless), limits: .default)
        for info in [gif, webp, avif] {
            #expect(info.frameCount == 5)
            #expect(abs(info.totalDuration - 0.24) < 0.0005)
            #expect(info.canvasSize == PixelSize(width: 48, height: 32))
        }
        #expect(gif.loopCount == 4)
        #expect(webp.loopCount == 4)
        #expect(avif.loopCount == 0)
    }

    @Test func tinyDelaysCountAsTheDecoderPlaysThemAndHugeLoopCountsAreReported() throws {
        var animation = try AnimationFixtures.animation(frames: 3, loopCount: 65535)
        for index in animation.frames.indices { animation.frames[index].duration = 0.01 }
        let data = try GIFCodec().encode(animation)
        let info = try GIFCodec().animationInfo(data, limits: .default)
        #expect(abs(info.totalDuration - 0.3) < 0.0005)
        #expect(info.loopCount == 65535)
        #expect(try GIFCodec().decode(data).durations == [0.1, 0.1, 0.1])
    }

    @Test func aStillImageIsOneFrameWithoutDuration() throws {
        let still = try AnimationFixtures.animation(frames: 1)
        let info = try WebPCodec().animationInfo(try WebPCodec().encode(still), limits: .default)
        #expect(
            info
                == AnimationInfo(
                    canvasSize: PixelSize(width: 48, height: 32), frameCount: 1, totalDuration: 0, loopCount: 0))
        #expect(try GIFCodec().animationInfo(try GIFCodec().encode(still), limits: .default).frameCount == 1)
    }

    @Test func aCanvasOverTheLimitIsRefusedFromTheHeader() throws {
        let data = try GIFCodec().encode(try AnimationFixtures.animation(frames: 2))
        do {
            _ = try GIFCodec().animationInfo(data, limits: DecodeLimits(maxPixels: 100))
            Issue.record("a 48x32 canvas passed a 100-pixel limit")
        } catch let error as ImagoError {
            #expect(error.kind == .limitExceeded)
        }
    }
}
