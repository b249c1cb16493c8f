import ImagoRendering
import Testing

/// `q=auto` and `f=best` in every grammar that has them: Imago's `q=auto[:TARGET[:MIN:MAX]]` and `f=best`,
/// imgproxy Pro's `autoquality:dssim:…` and `format:best`, one model and one key; bad targets, ranges and formats
/// refused with the reason.
@Suite struct AutoQualityOptionTests: GrammarReading {
    let context = ProcessingOptions.Context()

    func refusal(_ body: () throws -> ProcessingOptions) -> String {
        do {
            let options = try body()
            Issue.record("accepted: \(options.canonical)")
            return ""
        } catch let error as OptionError {
            return error.message
        } catch {
            Issue.record("not an OptionError: \(error)")
            return ""
        }
    }

    @Test func imagoSpellingsReadIntoTheModelAndItsKey() throws {
        let plain = try imago("q=auto")
        #expect(plain.autoQuality == AutoQualityOption() && plain.quality == nil)
        #expect(plain.canonical.contains("q=auto,"))
        let targeted = try imago("q=auto:0.015")
        #expect(targeted.autoQuality == AutoQualityOption(target: 0.015))
        #expect(targeted.canonical.contains("q=auto:0.015,"))
        let bounded = try imago("q=auto:0.015:40:90")
        #expect(bounded.autoQuality == AutoQualityOption(target: 0.015, minQuality: 40, maxQuality: 90))
        #expect(bounded.canonical.contains("q=auto:0.015:40:90,"))
        let unbounded = try imago("q=auto:-:40:90")
        #expect(unbounded.autoQuality == AutoQualityOption(minQuality: 40, maxQuality: 90))
        #expect(unbounded.canonical.contains("q=auto:-:40:90,"))
        #expect(try imago("f=best").format == .best && imago("f=best").canonical.contains("f=best"))
        // A quality and q=auto are one option: the later item is the only one.
        #expect(try imago("q=70").autoQuality == nil)
    }

    @Test func imgproxysProSpellingsGiveTheSameKey() throws {
        #expect(try imgproxy("aq:dssim:0.015:40:90").canonical == imago("q=auto:0.015:40:90").canonical)
        #expect(try imgproxy("autoquality:dssim:0.015").canonical == imago("q=auto:0.015").canonical)
        #expect(try imgproxy("autoquality:dssim::40:90").canonical == imago("q=auto:-:40:90").canonical)
        #expect(try imgproxy("autoquality:dssim:0.02:30:95:0.001").autoQuality?.target == 0.02)
        #expect(try imgproxy("aq:dssim/aq:none").autoQuality == nil)
        #expect(try imgproxy("format:best").canonical == imago("f=best").canonical)
        #expect(try imgproxy("f:best/aq:dssim:0.01").canonical == imago("f=best,q=auto:0.01").canonical)
        // A quality in the URL wins over autoquality.
        #expect(try imgproxy("aq:dssim:0.01/q:70").canonical == imago("q=70").canonical)
    }

    @Test func badTargetsRangesAndFormatsAreRefusedWithTheReason() {
        #expect(refusal { try imago("q=auto:1.5") }.contains("DSSIM target"))
        #expect(refusal { try imago("q=auto:0") }.contains("between 0 and 1"))
        #expect(refusal { try imago("q=auto:1") }.contains("between 0 and 1"))
        #expect(refusal { try imago("q=auto:0.02:90:40") }.contains("minimum first"))
        #expect(refusal { try imago("q=auto:0.02:40") }.contains("q=auto:0.02:40"))
        #expect(refusal { try imago("q=auto,f=png") }.contains("png has no quality to search"))
        #expect(refusal { try imago("q=auto,f=gif") }.contains("gif has no quality to search"))
        #expect(refusal { try imago("q=auto,maxb=1000") }.contains("both choose the quality"))
        #expect(refusal { try imago("f=best,maxb=1000") }.contains("both choose the quality"))
        #expect(refusal { try imgproxy("aq:dssim:0.02:90:40") }.contains("minimum first"))
        #expect(refusal { try imgproxy("aq:size:10240:10:80") }.contains("size"))
        #expect(refusal { try imgproxy("aq:ml") }.contains("ml"))
        #expect(refusal { try imgproxy("aq:psnr") }.contains("dssim or none"))
        #expect(refusal { try imgproxy("aq:dssim:2") }.contains("DSSIM target"))
    }
}
