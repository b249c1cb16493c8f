import Foundation
import Testing

@testable import ImagoCore

/// `BestFormat` on stand-in codecs of different sizes: the smallest wins, candidates that cannot win are given up
/// or not tried, failures are passed over, and the candidate list follows the accepted formats.
@Suite struct BestFormatTests {
    static let image = TestImages.image(try! TestImages.photoLike(96, 72, alpha: false))

    static func candidate(_ codec: NoisyCodec, model: QualityModel? = nil) -> BestFormat.Candidate {
        BestFormat.Candidate(encoder: codec, decoder: codec, model: model)
    }

    /// Sizes dominated by the quality, as a real codec's are, so the standard models' size predictions hold: a first
    /// WebP encode at a low quality predicts its final size from WebP's curve, and that must stay under AVIF's.
    @Test func keepsTheSmallest() throws {
        let large = NoisyCodec(format: "avif", bytesPerQuality: 4000)
        let small = NoisyCodec(format: .webp, bytesPerQuality: 200)
        let choice = try BestFormat(candidates: [Self.candidate(large), Self.candidate(small)]).choose(Self.image)
        #expect(choice.choice.decision.format == .webp, "\(choice.reports)")
        #expect(choice.choice.decision.withinTarget)
        #expect(choice.choice.encodes == large.qualities.count + small.qualities.count)
        #expect(choice.reports.count == 2)
    }

    /// After a small output, a format whose outputs are four times larger is given up after one encode.
    @Test func givesUpACandidateThatCannotWin() throws {
        let small = NoisyCodec(format: "avif", bytesPerQuality: 20)
        let large = NoisyCodec(format: .webp, bytesPerQuality: 400)
        let outcome = try BestFormat(candidates: [Self.candidate(small), Self.candidate(large)]).choose(Self.image)
        #expect(outcome.choice.decision.format == "avif")
        #expect(large.qualities.count == 1)
        guard case .cannotWin(.webp, encodes: 1) = outcome.reports[1] else {
            Issue.record("webp was not given up: \(outcome.reports[1])")
            return
        }
    }

    /// A candidate expected to take longer than the time left is not tried; the first always is.
    @Test func skipsACandidateSlowerThanTheTimeLeft() throws {
        let slowModel = QualityModel(
            logDSSIM: QualityModel.standard(for: .webp).logDSSIM, complexityWeight: 0,
            logBytes: QualityModel.standard(for: .webp).logBytes, encodeMillisecondsPerMegapixel: 1e9)
        let first = NoisyCodec(format: "avif")
        let slow = NoisyCodec(format: .webp, bytesPerQuality: 1)
        let best = BestFormat(candidates: [
            Self.candidate(first, model: slowModel), Self.candidate(slow, model: slowModel),
        ])
        let outcome = try best.choose(Self.image, limits: SearchLimits(deadline: .now + .seconds(600)))
        #expect(!first.qualities.isEmpty)
        #expect(slow.qualities.isEmpty)
        guard case .tooSlow(.webp, let expected, let left) = outcome.reports[1] else {
            Issue.record("webp was tried: \(outcome.reports[1])")
            return
        }
        #expect(expected > left)
    }

    @Test func encodesEachOnceAtAFixedQuality() throws {
        let a = NoisyCodec(format: "avif", bytesPerQuality: 50)
        let b = NoisyCodec(format: .webp, bytesPerQuality: 40)
        let png = NoisyCodec(format: .png, bytesPerQuality: 10)
        let outcome = try BestFormat(candidates: [a, b, png].map { Self.candidate($0) })
            .choose(Self.image, quality: .fixed(70))
        #expect(a.qualities == [70] && b.qualities == [70] && png.qualities == [70])
        #expect(outcome.choice.decision.format == .png)
        #expect(outcome.choice.decision.quality == nil && outcome.choice.decision.dssim == nil)
        #expect(outcome.choice.encodes == 3)
    }

    @Test func passesOverAFailingEncoder() throws {
        let broken = NoisyCodec(format: "avif", fails: true)
        let working = NoisyCodec(format: .webp)
        let outcome = try BestFormat(candidates: [Self.candidate(broken), Self.candidate(working)]).choose(Self.image)
        #expect(outcome.choice.decision.format == .webp)
        guard case .failed("avif", let reason) = outcome.reports[0] else {
            Issue.record("avif did not fail: \(outcome.reports[0])")
            return
        }
        #expect(reason.contains("told to fail"))
        #expect(throws: ImagoError.self) {
            try BestFormat(candidates: [Self.candidate(broken)]).choose(Self.image)
        }
    }

    @Test func refusesBadInputBeforeEncoding() throws {
        #expect(throws: QualityError(.noCandidates, "f=best needs at least one format")) {
            try BestFormat(candidates: []).choose(Self.image)
        }
        let codec = NoisyCodec()
        #expect { try BestFormat(candidates: [Self.candidate(codec)]).choose(Self.image, quality: .fixed(0)) } throws: {
            ($0 as? QualityError)?.kind == .invalidQualityRange
        }
        #expect {
            try BestFormat(candidates: [Self.candidate(codec)]).choose(
                Self.image, quality: .auto(AutoQuality(target: 3)))
        } throws: { ($0 as? QualityError)?.kind == .invalidTarget }
        #expect(codec.qualities.isEmpty)
    }

    @Test func listsTheAcceptedFormatsInOrder() {
        let chromium: Set<ImageFormat> = ["avif", .webp]
        #expect(BestFormat.formats(accepting: chromium.contains, hasAlpha: false) == ["avif", .webp, .jpeg])
        #expect(BestFormat.formats(accepting: chromium.contains, hasAlpha: true) == ["avif", .webp, .png])
        #expect(BestFormat.formats(accepting: { _ in false }, hasAlpha: false) == [.jpeg])
        #expect(
            BestFormat.formats(accepting: { _ in true }, hasAlpha: false, order: ["jxl", .webp, .jpeg])
                == ["jxl", .webp, .jpeg])
    }

    @Test func decisionHeader() {
        #expect(
            QualityDecision(format: .webp, quality: 72, dssim: 0.01314, target: 0.015).headerValue
                == "q=72; dssim=0.0131")
        #expect(QualityDecision(format: .png, quality: nil).headerValue == "")
        #expect(!QualityDecision(format: .webp, quality: 95, dssim: 0.02, target: 0.015).withinTarget)
    }
}
