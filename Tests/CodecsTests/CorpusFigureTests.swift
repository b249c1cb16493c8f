import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// The figure the fidelity issue asks for: of the corpus files both references decode alike (verdicts
/// `identical`, `identical_canon`, `near`), how many we decode with matching pixels, across every folder. The
/// files we deliberately decode otherwise are listed with the reason; nothing else may differ.
@Suite struct CorpusFigureTests {
    /// Deliberate exceptions: file → why.
    static let exceptions: [String: String] = [
        "gif/pillow/issue_2811.gif":
            "LZW minimum code size 11, outside the GIF spec (at most 8): giflib refuses it, as Chrome does; "
            + "decoding it would need a second LZW decoder beside giflib's"
    ]

    @Test func filesBothReferencesDecodeAreDecodedWithMatchingPixels() async throws {
        let corpus = try CorpusReference.load()
        let decoders: [any ImageDecoder] = [PNGCodec(), JPEGCodec(), GIFCodec(), WebPCodec()]
        let conformance = CorpusConformance(corpus: corpus)
        var decodable = 0
        var matching = 0
        var mismatches: [String: String] = [:]
        for folder in ["pngsuite", "png-extra", "jpeg", "gif", "webp"] {
            // Seconds of decoding per folder: off the pool.
            let summary = try await offPool { conformance.run(folder: folder, decoders: decoders) }
            for outcome in summary.outcomes
            where ["identical", "identical_canon", "near"].contains(outcome.entry.verdict) {
                decodable += 1
                if outcome.agrees == true { matching += 1 } else { mismatches[outcome.entry.file] = outcome.detail }
            }
        }
        let percent = Double(matching) * 100 / Double(max(decodable, 1))
        print("[corpus] figure: \(matching) of \(decodable) files both references decode match (\(percent)%)")
        #expect(Set(mismatches.keys) == Set(Self.exceptions.keys), "unexpected: \(mismatches)")
        #expect(percent >= 99)
    }
}
