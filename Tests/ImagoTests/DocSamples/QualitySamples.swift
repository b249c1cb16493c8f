import Foundation
import Imago
import Testing

// The Swift sample of Docs/Quality.md, verbatim (DocSamplesTests checks it is here), and a test that runs it.

/// Docs/Quality.md, q=auto and f=best from Swift.
func qualitySample(_ image: DecodedImage) throws -> (QualityChoice, BestFormat.Outcome) {
    // The lowest WebP quality within the default target, in at most 4 encodes, within 5 seconds.
    let search = QualitySearch(encoder: WebPCodec(), decoder: WebPCodec())
    let webp = try search.run(image, limits: SearchLimits(deadline: .now + .seconds(5)))
    print(webp.decision.headerValue)  // for example "q=78; dssim=0.0204"
    // The smallest of AVIF, WebP and JPEG, each at the lowest quality within a stricter target.
    let best = BestFormat(candidates: [
        BestFormat.Candidate(encoder: AVIFCodec(), decoder: AVIFCodec()),
        BestFormat.Candidate(encoder: WebPCodec(), decoder: WebPCodec()),
        BestFormat.Candidate(encoder: JPEGCodec(), decoder: JPEGCodec()),
    ])
    let smallest = try best.choose(image, quality: .auto(AutoQuality(target: 0.015)))
    return (webp, smallest)
}

@Suite struct QualitySampleTests {
    @Test func findsQualitiesAndTheSmallestFormat() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let photo = try JPEGCodec().decode(try Data(contentsOf: root.appendingPathComponent("Docs/samples/photo.jpg")))
        let (webp, smallest) = try qualitySample(photo)
        #expect(webp.decision.format == .webp && webp.decision.withinTarget && webp.encodes <= 4)
        #expect(smallest.choice.decision.withinTarget && smallest.choice.decision.target == 0.015)
        #expect(smallest.reports.count == 3)
        for case .encoded(_, let bytes, _) in smallest.reports { #expect(smallest.choice.data.count <= bytes) }
    }
}
