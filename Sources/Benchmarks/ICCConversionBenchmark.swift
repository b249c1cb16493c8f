import Foundation
import Imago

/// The cost of ICC conversion (lcms2, 8-bit optimised transform, cached) on a 4000x3000 JPEG tagged with an
/// Adobe RGB (1998)-compatible profile: the converting decode against the plain decode of the same file
/// (`ColorProfileHandling.ignore`), at full size and on the thumbnail path (DCT-scaled to 1/8, converted after).
enum ICCConversionBenchmark {
    static func make() throws -> BenchmarkCase {
        let data = try input()
        let codec = JPEGCodec()
        let plain = DecodeOptions(colorProfiles: .ignore)
        return BenchmarkCase(
            name: "icc jpeg 4000x3000 vs plain",
            imago: { _ = try codec.decode(data) },
            baseline: { _ = try codec.decode(data, options: plain) })
    }

    static func makeThumbnail() throws -> BenchmarkCase {
        let data = try input()
        let codec = JPEGCodec()
        let target = PixelSize(width: 500, height: 375)
        let converting = DecodeOptions(targetSize: target)
        let plain = DecodeOptions(targetSize: target, colorProfiles: .ignore)
        return BenchmarkCase(
            name: "icc jpeg 4000x3000 at 1/8 vs plain",
            imago: { _ = try codec.decode(data, options: converting) },
            baseline: { _ = try codec.decode(data, options: plain) })
    }

    /// The synthetic 4000x3000 picture with the profile of a committed ICC fixture embedded.
    static func input() throws -> Data {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/ICC/rgb-adobe.png")
        let tagged = try PNGCodec().decode(Data(contentsOf: fixture), options: DecodeOptions(colorProfiles: .keep))
        let raster = try Raster(
            width: 4000, height: 3000, pixels: SyntheticImage.pixels(width: 4000, height: 3000, grain: 12))
        var image = DecodedImage(raster: raster, format: .jpeg)
        image.iccProfile = tagged.iccProfile
        return try JPEGCodec().encode(image, options: EncodeOptions(quality: 85))
    }
}
