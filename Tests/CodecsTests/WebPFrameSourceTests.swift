import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// Animated WebP frames on demand: the all-frames decode's frames, loop after loop.
@Suite struct WebPFrameSourceTests {
    static func animation(frames: Int, side: Int = 48) throws -> Data {
        let rasters = try (0..<frames).map { index in
            try Raster(width: side, height: side) { buffer in
                for offset in stride(from: 0, to: buffer.count, by: 4) {
                    let pixel = offset / 4
                    buffer[offset] = UInt8((pixel % side * 5 + index * 40) & 0xFF)
                    buffer[offset + 1] = UInt8((pixel / side * 5) & 0xFF)
                    buffer[offset + 2] = UInt8(index * 30 & 0xFF)
                    buffer[offset + 3] = pixel % 7 == 0 ? 128 : 255
                }
            }
        }
        let image = DecodedImage(
            frames: rasters.enumerated().map { ImageFrame(raster: $1, duration: 0.05 + Double($0) * 0.01) },
            loopCount: 3, format: .webp, hasAlpha: true)
        var options = EncodeOptions()
        options.allFrames = true
        options.lossless = true
        return try WebPCodec().encode(image, options: options)
    }

    static func loop(_ source: any AnimationFrameSource) throws -> [ImageFrame] {
        var frames: [ImageFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test func framesOnDemandEqualTheAllFramesDecodeOnEveryLoop() throws {
        let data = try Self.animation(frames: 6)
        let whole = try WebPCodec().decode(data)
        #expect(whole.frames.count == 6)
        let source = try WebPCodec().makeFrameSource(data, options: .default)
        #expect(source.loopCount == whole.loopCount && source.canvasSize == PixelSize(width: 48, height: 48))
        for _ in 0..<2 {
            let frames = try Self.loop(source)
            #expect(frames.map(\.raster) == whole.frames.map(\.raster))
            #expect(frames.map(\.duration) == whole.durations)
            try source.rewind()
        }
        #expect(source.warnings.isEmpty)
    }

    @Test func anAnimationOverTheTotalLimitPlaysOnDemand() throws {
        var options = DecodeOptions.default
        options.limits.maxTotalPixels = 48 * 48 * 3
        let data = try Self.animation(frames: 8)
        #expect(throws: ImagoError.self) { try WebPCodec().decode(data, options: options) }
        #expect(try Self.loop(try WebPCodec().makeFrameSource(data, options: options)).count == 8)
    }

    /// libwebp's animation decoder reads the whole file's chunks before the first frame, so a truncated animated
    /// WebP is refused at once, with a typed error, on demand as in the all-frames decode.
    @Test func aTruncatedAnimationIsRefusedWithATypedError() throws {
        let truncated = try Self.animation(frames: 6).dropLast(500)
        let onDemand = #expect(throws: ImagoError.self) {
            try WebPCodec().makeFrameSource(truncated, options: .default)
        }
        #expect(onDemand?.kind == .decodingFailed(format: .webp))
        #expect(throws: ImagoError.self) { try WebPCodec().decode(truncated) }
    }
}
