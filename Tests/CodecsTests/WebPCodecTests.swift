import Foundation
import ImagoCodecs
import ImagoCore
import Testing

@Suite struct WebPCodecTests {
    /// A smooth image with varying alpha (and fully transparent pixels that keep a colour).
    static func gradient(width: Int, height: Int, alpha: Bool = true) throws -> Raster {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let a: UInt8 = alpha ? (x < 4 ? 0 : UInt8(128 + (y * 127) / Swift.max(height - 1, 1))) : 255
                pixels += [UInt8(x * 255 / Swift.max(width - 1, 1)), UInt8(y * 255 / Swift.max(height - 1, 1)), 90, a]
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    static func meanAbsoluteError(_ lhs: Raster, _ rhs: Raster) -> Double {
        let total = zip(lhs.pixels, rhs.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(lhs.width * lhs.height * 4)
    }

    @Test func sniffsOnlyRIFFWebP() {
        let codec = WebPCodec()
        #expect(codec.canDecode(Data("RIFF\u{10}\0\0\0WEBPVP8L".utf8)))
        #expect(!codec.canDecode(Data("RIFF\u{10}\0\0\0WAVEfmt ".utf8)))
        #expect(!codec.canDecode(Data("RIFF\0\0\0\0WEB".utf8)))
        #expect(!codec.canDecode(Data("GIF89a".utf8)))
    }

    @Test func losslessRoundTripIsExactIncludingTransparentPixels() throws {
        let raster = try Self.gradient(width: 37, height: 23)
        let data = try WebPCodec().encode(
            DecodedImage(raster: raster, format: .webp), options: EncodeOptions(lossless: true))
        let decoded = try WebPCodec().decode(data)
        #expect(decoded.raster == raster)
        #expect(decoded.hasAlpha && decoded.frames.count == 1 && decoded.loopCount == 0)
    }

    @Test func lossyRoundTripIsClose() throws {
        let raster = try Self.gradient(width: 64, height: 48, alpha: false)
        let data = try WebPCodec().encode(
            DecodedImage(raster: raster, format: .webp), options: EncodeOptions(quality: 90))
        let decoded = try WebPCodec().decode(data)
        let error = Self.meanAbsoluteError(decoded.raster, raster)
        #expect(error < 3, "mean absolute error \(error)")
        #expect(!decoded.hasAlpha)
        let smaller = try WebPCodec().encode(
            DecodedImage(raster: raster, format: .webp), options: EncodeOptions(quality: 10))
        #expect(smaller.count < data.count)
    }

    @Test func animationRoundTripKeepsFramesDurationsAndLoopCount() throws {
        let colors = [RGBA(255, 0, 0), RGBA(0, 0, 255, 128), RGBA(0, 200, 0)]
        let frames = try colors.enumerated().map { index, color in
            ImageFrame(raster: try Raster(width: 9, height: 7, fill: color), duration: [0.05, 0.25, 1][index])
        }
        let image = DecodedImage(frames: frames, loopCount: 4, format: .webp, hasAlpha: true)
        let data = try WebPCodec().encode(image, options: EncodeOptions(lossless: true))
        let decoded = try WebPCodec().decode(data)
        #expect(decoded.frames.map(\.raster) == frames.map(\.raster))
        #expect(decoded.durations == [0.05, 0.25, 1])
        #expect(decoded.loopCount == 4)
        let first = try WebPCodec().decode(data, options: DecodeOptions(frames: .first))
        #expect(first.frames.count == 1 && first.raster == frames[0].raster)
        let fewFrames = DecodeOptions(limits: DecodeLimits(maxFrames: 2))
        #expect(GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(data, options: fewFrames) } == .limitExceeded)

        // Lossy animations keep frame count, timing and roughly the colours.
        let lossy = try WebPCodec().decode(try WebPCodec().encode(image, options: EncodeOptions(quality: 80)))
        #expect(lossy.frames.count == 3 && lossy.durations == [0.05, 0.25, 1] && lossy.loopCount == 4)
        for (decoded, original) in zip(lossy.frames, frames) {
            #expect(Self.meanAbsoluteError(decoded.raster, original.raster) < 4)
        }
    }

    @Test func targetSizeDecodesAtReducedScaleStillCoveringIt() throws {
        let raster = try Self.gradient(width: 400, height: 300, alpha: false)
        let data = try WebPCodec().encode(
            DecodedImage(raster: raster, format: .webp), options: EncodeOptions(quality: 95))
        let fit = try WebPCodec().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 100, height: 100)))
        #expect(fit.width == 100 && fit.height == 75)
        let fill = try WebPCodec().decode(
            data, options: DecodeOptions(targetSize: PixelSize(width: 100, height: 100), contentMode: .fill))
        #expect(fill.width == 134 && fill.height == 100)
        let larger = try WebPCodec().decode(
            data, options: DecodeOptions(targetSize: PixelSize(width: 800, height: 800)))
        #expect(larger.width == 400 && larger.height == 300, "never upscaled")
        // The scaled image still shows the gradient: its corners match the original's.
        #expect(abs(Int(fit.raster[99, 74].r) - Int(raster[399, 299].r)) < 12)
        #expect(abs(Int(fit.raster[0, 0].g) - Int(raster[0, 0].g)) < 12)
    }

    @Test func hugeDeclaredCanvasesAreRefusedFromTheHeader() {
        // A lossless header declaring 16384 x 16384 (268 megapixels) with no image data after it.
        var lossless = Array("RIFF".utf8) + [20, 0, 0, 0] + Array("WEBPVP8L".utf8) + [8, 0, 0, 0]
        lossless += [0x2F, 0xFF, 0xFF, 0xFF, 0x0F, 0, 0, 0]
        #expect(GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(Data(lossless)) } == .limitExceeded)
        // An extended header declaring a 65536 x 20000 animated canvas (1.3 gigapixels; libwebp itself refuses
        // 2^32 and more as corrupt).
        var extended = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
        extended += [0x02, 0, 0, 0, 0xFF, 0xFF, 0x00, 0x1F, 0x4E, 0x00]
        #expect(GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(Data(extended)) } == .limitExceeded)
        // The fuzzer's case: 32 x 8,388,632 (268 megapixels, 1 GB of RGBA) in a lossless header.
        var tall = Array("RIFF".utf8) + [20, 0, 0, 0] + Array("WEBPVP8L".utf8) + [8, 0, 0, 0]
        let bits = UInt32(31) | UInt32(8_388_631 & 0x3FFF) << 14
        tall += [0x2F] + withUnsafeBytes(of: bits.littleEndian, Array.init) + [0, 0, 0]
        let limits = DecodeOptions(limits: DecodeLimits(maxPixels: 100))
        #expect(GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(Data(tall), options: limits) } == .limitExceeded)
    }

    @Test func truncatedAndForeignBytesFailWithTheFormat() throws {
        let data = try WebPCodec().encode(
            DecodedImage(raster: try Self.gradient(width: 32, height: 32), format: .webp), options: EncodeOptions())
        for length in [0, 11, 30, data.count / 2, data.count - 1] {
            #expect(
                GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(data.prefix(length)) }
                    == .decodingFailed(format: .webp), "cut at \(length)")
        }
        #expect(
            GIFCodecLimitsTests.kind { _ = try WebPCodec().decode(Data("GIF89a".utf8)) }
                == .decodingFailed(format: .webp))
    }

    @Test func exifOrientationIsRead() throws {
        let corpus = try GIFWebPCorpusTests.requireCorpus()
        for (value, orientation) in [(3, ImageOrientation.down), (6, .right), (8, .left)] {
            let url = corpus.root.appendingPathComponent("webp/pillow/hopper_orientation_\(value).webp")
            #expect(try WebPCodec().decode(Data(contentsOf: url)).orientation == orientation)
        }
        let plain = corpus.root.appendingPathComponent("webp/pillow/hopper.webp")
        #expect(try WebPCodec().decode(Data(contentsOf: plain)).orientation == .up)
    }
}
