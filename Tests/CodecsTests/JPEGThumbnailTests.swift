import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// The fast thumbnail decode (smallest covering DCT scale, fast IDCT, plain upsampling) against the slow path: a
/// full-size, full-quality decode followed by the same resize.
///
/// The threshold, 35 dB PSNR over the colour channels, is where differences stop being visible in a photo (JPEG
/// itself at quality 90 sits around 38-42 dB from its source); the measured values here are about 40-47 dB. An
/// aliased or wrongly scaled thumbnail (say, a 1/8 decode enlarged to the target) falls well under 30 dB.
@Suite struct JPEGThumbnailTests {
    static let threshold = 35.0

    /// A photo-like picture: smooth light, hard-edged shapes, fine texture and grain.
    static func photoLike(width: Int, height: Int) throws -> Raster {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let grain = Double(Int(state & 15) - 8)
                let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
                var r = 60 + 150 * u
                var g = 90 + 120 * v
                var b = 140 + 60 * sin(u * 9) * cos(v * 7)
                let (dx, dy) = (u - 0.4, v - 0.55)
                if dx * dx + dy * dy < 0.04 { (r, g, b) = (220, 180, 40) }  // a sharp-edged disc
                if Int(Double(x) / 6 + 3 * sin(v * 40)) % 2 == 0, u > 0.7 { (r, g, b) = (r * 0.6, g * 0.6, b * 0.7) }
                let index = (y * width + x) * 4
                pixels[index] = UInt8(max(0, min(255, r + grain)))
                pixels[index + 1] = UInt8(max(0, min(255, g + grain)))
                pixels[index + 2] = UInt8(max(0, min(255, b + grain)))
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }

    /// PSNR of the colour channels of two rasters of the same size, in dB.
    static func psnr(_ a: Raster, _ b: Raster) -> Double {
        let (p, q) = (a.pixels, b.pixels)
        var squared = 0.0
        var count = 0
        for index in stride(from: 0, to: p.count, by: 4) {
            for channel in 0..<3 {
                let d = Double(p[index + channel]) - Double(q[index + channel])
                squared += d * d
                count += 1
            }
        }
        let mse = squared / Double(count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// (fast thumbnail, slow thumbnail) of `data` for a `side`-pixel box.
    static func thumbnails(_ data: Data, side: Int, mode: ContentMode) throws -> (DecodedImage, DecodedImage) {
        let box = PixelSize(width: side, height: side)
        let resize = ResizeProcessor(size: box, mode: mode)
        let fast = try resize.process(
            JPEGCodec().decode(data, options: DecodeOptions(targetSize: box, contentMode: mode)))
        let slow = try resize.process(JPEGCodec(scaledDecoding: false).decode(data, options: .default))
        return (fast, slow)
    }

    @Test(arguments: [
        (1600, 1200, 256, ContentMode.fit),  // 2/8 scale, fast IDCT: the benchmark's case
        (4000, 3000, 256, ContentMode.fit),  // 1/8
        (800, 600, 256, ContentMode.fit),  // 3/8, shrunk little further: full-quality IDCT
        (1200, 900, 160, ContentMode.fill),
    ])
    func fastThumbnailLooksLikeTheSlowOne(width: Int, height: Int, side: Int, mode: ContentMode) async throws {
        // Seconds of work in a debug build: off the pool.
        let (fast, slow) = try await offPool {
            let source = try Self.photoLike(width: width, height: height)
            let data = try JPEGCodec().encode(
                DecodedImage(raster: source, format: .jpeg), options: EncodeOptions(quality: 90))
            return try Self.thumbnails(data, side: side, mode: mode)
        }
        #expect(fast.width == slow.width && fast.height == slow.height)
        let value = Self.psnr(fast.raster, slow.raster)
        #expect(value >= Self.threshold, "PSNR \(value) dB for \(width)x\(height) to \(side)")
    }

    @Test func realPhotosOfTheCorpus() throws {
        let names = ["jpeg/exif-orientation/Landscape_1.jpg", "jpeg/pillow/xmp_test.jpg"]
        let files = names.map(SharedCorpus.file).filter { FileManager.default.fileExists(atPath: $0.path) }
        try #require(!files.isEmpty || ProcessInfo.processInfo.environment["IMAGO_CORPUS"] == nil)
        for file in files {
            let (fast, slow) = try Self.thumbnails(try Data(contentsOf: file), side: 256, mode: .fit)
            let value = Self.psnr(fast.raster, slow.raster)
            #expect(value >= Self.threshold, "PSNR \(value) dB for \(file.lastPathComponent)")
        }
    }

    /// The test above has teeth: a thumbnail enlarged from a too-small decode is caught.
    @Test func aBlurryThumbnailFailsTheThreshold() throws {
        let source = try Self.photoLike(width: 1600, height: 1200)
        let data = try JPEGCodec().encode(
            DecodedImage(raster: source, format: .jpeg), options: EncodeOptions(quality: 90))
        let (_, slow) = try Self.thumbnails(data, side: 256, mode: .fit)
        let tiny = try JPEGCodec().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 64, height: 64)))
        let blurry = try ResizeProcessor(size: PixelSize(width: 256, height: 256), upscale: true).process(tiny)
        #expect(blurry.width == slow.width)
        #expect(Self.psnr(blurry.raster, slow.raster) < Self.threshold)
    }

    /// 1275 rows at 1/2 scale are 638 rows, the last one half covered: the resize maps onto the 637.5 rows the picture
    /// covers (`Raster.extent`), so the thumbnail lines up with the full-size decode's. Mapping onto all 638 rows
    /// shifts the bottom by a quarter of an output row, which the same comparison catches.
    @Test func aReducedDecodeOfAnOddSizeLinesUpWithTheFullOne() throws {
        let source = try Self.photoLike(width: 1000, height: 1275)
        let data = try JPEGCodec().encode(
            DecodedImage(raster: source, format: .jpeg), options: EncodeOptions(quality: 95))
        let box = PixelSize(width: 500, height: 600)  // covered at 4/8 (500x638), not at 3/8 (375x479)
        let reduced = try JPEGCodec().decode(data, options: DecodeOptions(targetSize: box))
        #expect(reduced.width == 500 && reduced.height == 638)
        let extent = try #require(reduced.raster.extent)
        #expect(extent.width == 500 && extent.height == 637.5)
        let resize = ResizeProcessor(size: PixelSize(width: 250, height: 319))
        let full = try resize.process(JPEGCodec(scaledDecoding: false).decode(data))
        let aligned = try resize.process(reduced)
        var misaligned = reduced
        misaligned.frames = [ImageFrame(raster: try Raster(width: 500, height: 638, pixels: reduced.raster.pixels))]
        let shifted = try resize.process(misaligned)
        #expect(aligned.height == full.height && shifted.height == full.height)
        let (good, bad) = (Self.psnr(aligned.raster, full.raster), Self.psnr(shifted.raster, full.raster))
        #expect(good > bad + 0.5, "aligned \(good) dB, misaligned \(bad) dB")
    }

    @Test func choosesTheSmallestCoveringScale() throws {
        let source = try Self.photoLike(width: 800, height: 600)
        let data = try JPEGCodec().encode(DecodedImage(raster: source, format: .jpeg), options: .default)
        // 3/8 of 800x600 is 300x225, the smallest DCT scale still covering a 256 box (1/2 would be 400x300).
        let image = try JPEGCodec().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 256, height: 256)))
        #expect(image.width == 300 && image.height == 225)
    }
}
