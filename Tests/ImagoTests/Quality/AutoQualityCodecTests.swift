import Foundation
import Imago
import ImagoTestSupport
import Testing

/// `QualitySearch` and `BestFormat` with the real encoders: a photograph of the corpus reduced to 320 px, each lossy
/// format's answer within the default target in at most 4 encodes and near the lowest quality that meets it (found
/// by trying every quality), the output measured as reported; an image with alpha as JPEG; `f=best` for a
/// Chromium-like `Accept`.
@Suite struct AutoQualityCodecTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func photo() throws -> DecodedImage {
        let data = try Data(contentsOf: SharedCorpus.file("jpeg/exif-orientation/Landscape_0.jpg"))
        return try ResizeProcessor(width: 320, height: 320, mode: .fit, filter: .lanczos3)
            .process(try JPEGCodec().decode(data))
    }

    static let codecs: [(encoder: any ImageEncoder, decoder: any ImageDecoder)] = [
        (JPEGCodec(), JPEGCodec()), (WebPCodec(), WebPCodec()), (AVIFCodec(), AVIFCodec()), (JXLCodec(), JXLCodec()),
    ]

    static func dssim(_ data: Data, decoder: any ImageDecoder, against image: DecodedImage) throws -> Double {
        let decoded = try decoder.decode(data, options: DecodeOptions(colorProfiles: .ignore))
        return try DSSIM.between(image.raster, decoded.raster)
    }

    @Test(arguments: 0..<codecs.count)
    func meetsTheTargetNearTheLowestQuality(index: Int) throws {
        try SharedCorpus.require()
        let (encoder, decoder) = Self.codecs[index]
        let image = try Self.photo()
        let settings = AutoQuality()
        let counter = EncodeCounter()
        let search = QualitySearch(
            encoder: CountingEncoder(encoder, counter: counter), decoder: decoder, settings: settings)
        let choice = try search.run(image)
        let quality = try #require(choice.decision.quality)
        #expect(choice.decision.withinTarget, "\(encoder.format): \(choice.decision)")
        #expect(choice.encodes <= 4 && counter.total(for: encoder.format) == choice.encodes)
        #expect(try abs(Self.dssim(choice.data, decoder: decoder, against: image) - choice.decision.dssim!) < 1e-9)
        // The lowest quality that meets the target, trying each; the search lands at most 5 above it.
        let lowest = try (settings.minQuality...settings.maxQuality).first { quality in
            let data = try encoder.encode(image, options: EncodeOptions(quality: quality))
            return try Self.dssim(data, decoder: decoder, against: image) <= settings.target
        }
        let exact = try #require(lowest, "\(encoder.format): no quality meets \(settings.target)")
        #expect(quality >= exact && quality <= exact + 5, "\(encoder.format): q\(quality), lowest q\(exact)")
    }

    /// A JPEG of an image with alpha is measured against the image flattened onto the background it is encoded on.
    @Test func jpegOfAnImageWithAlpha() throws {
        let data = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Docs/samples/landscape.webp"))
        let image = try WebPCodec().decode(data)
        #expect(image.raster.hasTransparency)
        let options = EncodeOptions(background: RGBColor(20, 40, 60))
        let choice = try QualitySearch(encoder: JPEGCodec(), decoder: JPEGCodec()).run(image, options: options)
        #expect(choice.decision.withinTarget, "\(choice.decision)")
        let flattened = try image.raster.flattened(onto: RGBColor(20, 40, 60))
        let decoded = try JPEGCodec().decode(choice.data, options: DecodeOptions(colorProfiles: .ignore))
        #expect(try abs(DSSIM.between(flattened, decoded.raster) - choice.decision.dssim!) < 1e-9)
    }

    /// `f=best` for Chromium's `Accept` (AVIF, WebP; JPEG for an opaque photo): the smallest of the outputs made,
    /// no larger than JPEG's own search, within the target.
    @Test func bestFormatForChromium() throws {
        try SharedCorpus.require()
        let image = try Self.photo()
        let formats = BestFormat.formats(accepting: { [.avif, .webp].contains($0) }, hasAlpha: false)
        #expect(formats == [.avif, .webp, .jpeg])
        let candidates = formats.map { format in
            let codec = Self.codecs.first { $0.encoder.format == format }!
            return BestFormat.Candidate(encoder: codec.encoder, decoder: codec.decoder)
        }
        let outcome = try BestFormat(candidates: candidates).choose(image)
        #expect(outcome.choice.decision.withinTarget)
        #expect(outcome.reports.count == 3)
        let jpeg = try QualitySearch(encoder: JPEGCodec(), decoder: JPEGCodec()).run(image)
        #expect(outcome.choice.data.count <= jpeg.data.count)
        for report in outcome.reports {
            if case .encoded(_, let bytes, _) = report { #expect(outcome.choice.data.count <= bytes) }
        }
    }
}
