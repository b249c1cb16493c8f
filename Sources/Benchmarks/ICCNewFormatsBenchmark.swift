import Foundation
import Imago

/// The cost of ICC conversion in the new formats' decoders: a 2000x1500 HEIC and AVIF tagged with the Adobe RGB
/// (1998)-compatible profile, the converting decode against the plain decode of the same file
/// (`ColorProfileHandling.ignore`). The transform runs in place in the decoded raster, as for JPEG.
enum ICCNewFormatsBenchmark {
    static let width = 2000
    static let height = 1500

    static func makeHEIC() throws -> BenchmarkCase {
        let data = try HEIFCodec(speed: 8).encode(try taggedImage(), options: EncodeOptions(quality: 75))
        return compare("icc heic \(width)x\(height) vs plain", HEIFCodec(), data)
    }

    static func makeAVIF() throws -> BenchmarkCase {
        let data = try AVIFCodec(speed: 10).encode(try taggedImage(), options: EncodeOptions(quality: 75))
        return compare("icc avif \(width)x\(height) vs plain", AVIFCodec(), data)
    }

    private static func compare(_ name: String, _ codec: some ImageDecoder, _ data: Data) -> BenchmarkCase {
        let plain = DecodeOptions(colorProfiles: .ignore)
        return BenchmarkCase(
            name: name, imago: { _ = try codec.decode(data, options: DecodeOptions()) },
            baseline: { _ = try codec.decode(data, options: plain) })
    }

    /// The synthetic picture carrying the profile of a committed ICC fixture, kept so the encoders embed it.
    private static func taggedImage() throws -> DecodedImage {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/ICC/rgb-adobe.png")
        let tagged = try PNGCodec().decode(Data(contentsOf: fixture), options: DecodeOptions(colorProfiles: .keep))
        let raster = try Raster(
            width: width, height: height, pixels: SyntheticImage.pixels(width: width, height: height, grain: 12))
        var image = DecodedImage(raster: raster, format: .heic)
        image.iccProfile = tagged.iccProfile
        return image
    }
}
