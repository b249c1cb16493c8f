import Foundation
import Imago
import Testing

/// Reduced-scale decoding of images whose EXIF orientation swaps width and height: the processors' target is
/// upright, so the decoder must compare it with the upright size, or it reduces too much and the resize upscales.
@Suite struct ImageLoaderOrientedScalingTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-oriented-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Stored 800x1200 with orientation 6 (upright 1200x800), fine stripes in both directions so that an
    /// upscaled result is visibly softer.
    static func storedImage() throws -> DecodedImage {
        let width = 800
        let height = 1200
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8(128 + 100 * sin(Double(x) * 0.3))
                pixels[index + 1] = UInt8(128 + 100 * sin(Double(y) * 0.25))
                pixels[index + 2] = UInt8(128 + 100 * sin(Double(x + y) * 0.2))
            }
        }
        return DecodedImage(raster: try Raster(width: width, height: height, pixels: pixels), format: .png)
    }

    /// A big-endian TIFF block whose only tag is orientation 6.
    static let tiffOrientation6: [UInt8] =
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]  // header, IFD at 8
        + [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]  // one entry: tag 274, SHORT, count 1, value 6
        + [0, 0, 0, 0]  // no next IFD

    /// The JPEG with an APP1 EXIF segment right after SOI.
    static func orientedJPEG(_ image: DecodedImage) throws -> Data {
        let jpeg = try JPEGCodec().encode(image, options: EncodeOptions(quality: 95))
        let payload = Array("Exif".utf8) + [0, 0] + tiffOrientation6
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data(jpeg.prefix(2)) + Data(segment) + Data(jpeg.dropFirst(2))
    }

    /// The lossless WebP rewritten as an extended file: VP8X (EXIF flag), the bitstream chunk, an EXIF chunk.
    static func orientedWebP(_ image: DecodedImage) throws -> Data {
        let webp = try [UInt8](WebPCodec().encode(image, options: EncodeOptions(lossless: true)))
        let bitstream = Array(webp[12...])  // after "RIFF" size "WEBP"
        func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value >> 16)] }
        func le32(_ value: Int) -> [UInt8] { le24(value) + [UInt8(value >> 24)] }
        let vp8x = Array("VP8X".utf8) + le32(10) + [0x08, 0, 0, 0] + le24(image.width - 1) + le24(image.height - 1)
        var exif = Array("EXIF".utf8) + le32(tiffOrientation6.count) + tiffOrientation6
        if tiffOrientation6.count % 2 == 1 { exif.append(0) }
        let body = Array("WEBP".utf8) + vp8x + bitstream + exif
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    func loader() -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(FileTransport())
        builder.add(Codec(decoder: JPEGCodec(), encoder: JPEGCodec()))
        builder.add(Codec(decoder: WebPCodec(), encoder: WebPCodec()))
        let registry = builder.build()
        return ImageLoader(registry: registry)
    }

    /// PSNR of the colour channels of two rasters of the same size, in dB.
    static func psnr(_ a: Raster, _ b: Raster) -> Double {
        var squares = 0.0
        var count = 0
        for (index, (x, y)) in zip(a.pixels, b.pixels).enumerated() where index % 4 != 3 {
            squares += Double((Int(x) - Int(y)) * (Int(x) - Int(y)))
            count += 1
        }
        return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(count)))
    }

    @Test(arguments: ["jpg", "webp"])
    func fillResizeOfATurnedImageHasTheAskedSizeAndSharpness(format: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.storedImage()
        let data = format == "jpg" ? try Self.orientedJPEG(image) : try Self.orientedWebP(image)
        let file = folder.appendingPathComponent("turned.\(format)")
        try data.write(to: file)
        // The decoder reports orientation 6 and, given an upright target, keeps the upright size covering it:
        // a tall 100x300 target on the upright 1200x800 needs the upright height ≥ 300.
        let options = DecodeOptions(targetSize: PixelSize(width: 100, height: 300), contentMode: .fill)
        let decoder: any ImageDecoder = format == "jpg" ? JPEGCodec() : WebPCodec()
        let decoded = try decoder.decode(data, options: options)
        #expect(decoded.orientation == .right)
        #expect(decoded.raster.width >= 300 && decoded.raster.height >= 100, "\(decoded.raster.width)")
        #expect(decoded.raster.width < image.width, "the decode is reduced")
        // The pixel budget's estimate from the header is what the decode allocates.
        let estimator = try #require(decoder as? any DecodedSizeEstimating)
        #expect(estimator.decodedByteCount(data, options: options) == decoded.raster.width * decoded.raster.height * 4)

        let resize = ResizeProcessor(width: 100, height: 300, mode: .fill)
        let loader = loader()
        let response = try await loader.image(for: ImageRequest(url: file, processors: [resize]))
        #expect(response.image.width == 100 && response.image.height == 300)
        // The reference: full-size decode, turned upright, the same resize.
        let full = try await loader.image(for: ImageRequest(url: file))
        #expect(full.image.width == 1200 && full.image.height == 800)
        let reference = try resize.process(full.image)
        let value = Self.psnr(response.image.raster, reference.raster)
        #expect(value >= 35, "PSNR \(value) dB")
    }

    /// Without the orientation stage the processors see the stored pixels, so the target is in the stored space
    /// and must not be turned: a 300x100 fill of the stored 800x1200 keeps a 1/2 decode (400x600) at most.
    @Test(arguments: ["jpg", "webp"])
    func storedSpaceTargetWhenOrientationIsNotApplied(format: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.storedImage()
        let data = format == "jpg" ? try Self.orientedJPEG(image) : try Self.orientedWebP(image)
        let file = folder.appendingPathComponent("turned.\(format)")
        try data.write(to: file)
        let resize = ResizeProcessor(width: 300, height: 100, mode: .fill)
        var request = ImageRequest(url: file, processors: [resize])
        request.appliesOrientation = false
        let loader = loader()
        let response = try await loader.image(for: request)
        #expect(response.image.orientation == .right)
        #expect(response.image.width == 300 && response.image.height == 100)
        var full = ImageRequest(url: file)
        full.appliesOrientation = false
        let reference = try resize.process(try await loader.image(for: full).image)
        let value = Self.psnr(response.image.raster, reference.raster)
        #expect(value >= 35, "PSNR \(value) dB")
    }
}
