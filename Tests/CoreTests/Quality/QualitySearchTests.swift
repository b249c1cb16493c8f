import Foundation
import Testing

@testable import ImagoCore

/// The search's rules on a stand-in codec whose DSSIM falls and whose size grows with quality: the lowest quality
/// within the target, the bounds, bad settings refused before any encode, the deadline and cancellation, the
/// comparison for outputs without alpha, images under the window.
@Suite struct QualitySearchTests {
    static let photo = try! TestImages.photoLike(96, 72, alpha: false)
    static let image = TestImages.image(photo)

    /// Each quality's DSSIM on the stand-in codec, measured directly.
    static func dssim(_ codec: NoisyCodec, quality: Int, image: DecodedImage = image) throws -> Double {
        let data = try codec.encode(image, options: EncodeOptions(quality: quality))
        return try DSSIM.between(image.raster, try codec.decode(data, options: .default).raster)
    }

    /// The stand-in's own model: its DSSIM and size on the test image at the model's qualities.
    static let standInModel: QualityModel = {
        let codec = NoisyCodec()
        let curve = QualityModel.qualities.map { log(max(try! dssim(codec, quality: $0), 1e-6)) }
        let sizes = QualityModel.qualities.map {
            log(Double(try! codec.encode(image, options: EncodeOptions(quality: $0)).count))
        }
        return QualityModel(logDSSIM: curve, complexityWeight: 0, logBytes: sizes, encodeMillisecondsPerMegapixel: 1)
    }()

    /// The lowest quality in 30...95 from which every higher one meets `target` (96 when 95 misses it).
    static func lowestMeeting(_ target: Double) throws -> Int {
        var lowest = 96
        for quality in (30...95).reversed() {
            guard try dssim(NoisyCodec(), quality: quality) <= target else { break }
            lowest = quality
        }
        return lowest
    }

    @Test(arguments: [0.004, 0.01, 0.03, 0.08])
    func answersTheLowestQualityWithinTheTarget(target: Double) throws {
        let expected = try Self.lowestMeeting(target)
        #expect((31...95).contains(expected), "the target \(target) is not inside the range searched")
        for maxEncodes in [4, 20] {
            let codec = NoisyCodec()
            let settings = AutoQuality(target: target, maxEncodes: maxEncodes)
            let search = QualitySearch(encoder: codec, decoder: codec, settings: settings, model: Self.standInModel)
            let choice = try search.run(Self.image)
            let quality = try #require(choice.decision.quality)
            #expect(choice.decision.withinTarget)
            #expect(try abs(Self.dssim(NoisyCodec(), quality: quality) - choice.decision.dssim!) < 1e-12)
            // The model follows the codec: the answer is the lowest quality, or the one above it.
            #expect(
                quality <= expected + 1, "q\(quality) for \(target), when q\(expected) meets it: \(codec.qualities)")
            #expect(choice.encodes == codec.qualities.count && choice.encodes <= maxEncodes)
        }
    }

    @Test func makesAtMostMaxEncodes() throws {
        for maxEncodes in 1...4 {
            let codec = NoisyCodec()
            let search = QualitySearch(
                encoder: codec, decoder: codec, settings: AutoQuality(target: 0.004, maxEncodes: maxEncodes))
            let choice = try search.run(Self.image)
            #expect(codec.qualities.count <= maxEncodes)
            #expect(choice.encodes == codec.qualities.count)
            #expect(Set(codec.qualities).count == codec.qualities.count, "a quality encoded twice: \(codec.qualities)")
            #expect(codec.qualities.contains(choice.decision.quality!))
        }
    }

    @Test func aLooseTargetAnswersTheMinimum() throws {
        let codec = NoisyCodec()
        let settings = AutoQuality(target: 0.9, minQuality: 40, maxQuality: 90)
        let choice = try QualitySearch(encoder: codec, decoder: codec, settings: settings).run(Self.image)
        #expect(choice.decision.quality == 40, "\(codec.qualities)")
        #expect(choice.decision.withinTarget)
        #expect(codec.qualities.allSatisfy { (40...90).contains($0) })
    }

    @Test func anUnreachableTargetAnswersTheMaximumAndSaysSo() throws {
        let codec = NoisyCodec()
        let settings = AutoQuality(target: 1e-9, minQuality: 30, maxQuality: 80)
        let choice = try QualitySearch(encoder: codec, decoder: codec, settings: settings).run(Self.image)
        #expect(choice.decision.quality == 80)
        #expect(!choice.decision.withinTarget)
        #expect(choice.decision.headerValue.hasPrefix("q=80; dssim=0.0"))
        #expect(codec.qualities.allSatisfy { $0 <= 80 })
    }

    static let badSettings: [(AutoQuality, QualityError.Kind)] = [
        (AutoQuality(target: 0), .invalidTarget), (AutoQuality(target: 1), .invalidTarget),
        (AutoQuality(target: -0.01), .invalidTarget), (AutoQuality(target: .nan), .invalidTarget),
        (AutoQuality(target: 2), .invalidTarget), (AutoQuality(minQuality: 90, maxQuality: 80), .invalidQualityRange),
        (AutoQuality(minQuality: 0), .invalidQualityRange), (AutoQuality(maxQuality: 101), .invalidQualityRange),
        (AutoQuality(maxEncodes: 0), .invalidQualityRange),
    ]

    @Test(arguments: badSettings)
    func refusesBadSettingsBeforeEncoding(settings: AutoQuality, kind: QualityError.Kind) throws {
        let codec = NoisyCodec()
        #expect {
            try QualitySearch(encoder: codec, decoder: codec, settings: settings).run(Self.image)
        } throws: { ($0 as? QualityError)?.kind == kind }
        #expect(codec.qualities.isEmpty)
    }

    @Test func refusesFormatsWithoutQuality() throws {
        for format in [ImageFormat.png, .gif] {
            let codec = NoisyCodec(format: format)
            #expect {
                try QualitySearch(encoder: codec, decoder: codec).run(Self.image)
            } throws: { ($0 as? QualityError)?.kind == .noQualitySetting }
            #expect(codec.qualities.isEmpty)
        }
        let codec = NoisyCodec()
        #expect {
            try QualitySearch(encoder: codec, decoder: codec).run(Self.image, options: EncodeOptions(lossless: true))
        } throws: { ($0 as? QualityError)?.reason.contains("lossless webp") == true }
    }

    /// A model whose curve is flat: its first estimate is the minimum, far from a strict target.
    static let misleadingModel = QualityModel(
        logDSSIM: Array(repeating: -9, count: QualityModel.qualities.count), complexityWeight: 0,
        logBytes: QualityModel.qualities.map { Double($0) / 20 }, encodeMillisecondsPerMegapixel: 1)

    @Test func stopsAtTheDeadlineWithTheBestSoFar() throws {
        let codec = NoisyCodec()
        let search = QualitySearch(
            encoder: codec, decoder: codec, settings: AutoQuality(target: 0.002), model: Self.misleadingModel)
        let choice = try search.run(Self.image, limits: SearchLimits(deadline: .now))
        #expect(codec.qualities == [30])
        #expect(choice.decision.stoppedEarly)
        #expect(choice.decision.quality == 30)
        #expect(!choice.decision.withinTarget)
        #expect(choice.decision.headerValue.hasSuffix("; partial"))
        // Without the deadline the same search goes on.
        let unhurried = NoisyCodec()
        let full = try QualitySearch(
            encoder: unhurried, decoder: unhurried, settings: AutoQuality(target: 0.002), model: Self.misleadingModel
        ).run(Self.image, limits: SearchLimits(deadline: .now + .seconds(3600)))
        #expect(unhurried.qualities.count > 1)
        #expect(!full.decision.stoppedEarly)
    }

    @Test func stopsWhenTheCallerHasGone() throws {
        let codec = NoisyCodec()
        let search = QualitySearch(
            encoder: codec, decoder: codec, settings: AutoQuality(target: 0.002), model: Self.misleadingModel)
        #expect(throws: CancellationError.self) {
            try search.run(Self.image, limits: SearchLimits(isCancelled: { !codec.qualities.isEmpty }))
        }
        #expect(codec.qualities.count == 1)
        let never = NoisyCodec()
        #expect(throws: CancellationError.self) {
            try QualitySearch(encoder: never, decoder: never).run(
                Self.image, limits: SearchLimits(isCancelled: { true }))
        }
        #expect(never.qualities.isEmpty)
    }

    /// An output without alpha is compared with the image flattened onto the encode's background: on black, a
    /// half-transparent image compared over white would be far off at any quality.
    @Test func comparesOutputsWithoutAlphaFlattened() throws {
        let translucent = TestImages.image(try TestImages.photoLike(64, 48, alpha: true))
        let codec = NoisyCodec(format: .jpeg, keepsAlpha: false)
        let options = EncodeOptions(background: RGBColor(0, 0, 0))
        let choice = try QualitySearch(encoder: codec, decoder: codec, settings: AutoQuality(target: 0.01))
            .run(translucent, options: options)
        #expect(choice.decision.withinTarget)
        let decoded = try codec.decode(choice.data, options: .default).raster
        #expect(try DSSIM.between(translucent.raster, decoded) > 0.1)
    }

    @Test func imagesUnderTheWindowAreEncodedOnceAtTheMaximum() throws {
        let codec = NoisyCodec()
        let tiny = TestImages.image(try TestImages.photoLike(10, 30, alpha: false))
        let choice = try QualitySearch(encoder: codec, decoder: codec, settings: AutoQuality(maxQuality: 90)).run(tiny)
        #expect(codec.qualities == [90])
        #expect(choice.decision.quality == 90 && choice.decision.dssim == nil && choice.encodes == 1)
        #expect(choice.decision.headerValue == "q=90")
    }

    @Test func countsEncodesByFormat() throws {
        let counter = EncodeCounter()
        let codec = NoisyCodec()
        let choice = try QualitySearch(encoder: CountingEncoder(codec, counter: counter), decoder: codec).run(
            Self.image)
        _ = try CountingEncoder(NoisyCodec(format: .jpeg), counter: counter).encode(Self.image)
        #expect(counter.total(for: .webp) == choice.encodes)
        #expect(counter.totals == [.webp: choice.encodes, .jpeg: 1])
    }
}
