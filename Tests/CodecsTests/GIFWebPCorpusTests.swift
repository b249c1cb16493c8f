import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// Every corpus file under gif/ and webp/ against Pillow's and ImageMagick's verdicts (`reference.json`).
///
/// Where the references disagree (only GIFs do), or where we knowingly follow browsers instead, the file is listed
/// in `CorpusAgreement.knownDifferences` with the reason and what is checked instead.
@Suite struct GIFWebPCorpusTests {
    static let corpus = try? CorpusReference.read()

    /// The corpus; the test is skipped when it is absent (failed with `IMAGO_REQUIRE_CORPUS=1`).
    static func requireCorpus() throws -> CorpusReference {
        try SharedCorpus.require()
        return try #require(corpus, "the corpus is at ../shared/corpus or IMAGO_CORPUS")
    }

    @Test func gifFolderAgreesWithTheReferences() throws {
        let corpus = try Self.requireCorpus()
        let summary = try CorpusAgreement.check(corpus, folder: "gif", decoder: GIFCodec())
        print("gif corpus: \(summary)")
        #expect(summary.checked == corpus.entries(in: "gif").count)
        #expect(summary.unexpected.isEmpty, "unexpected results: \(summary.unexpected)")
    }

    @Test func webpFolderAgreesWithTheReferences() throws {
        let corpus = try Self.requireCorpus()
        let summary = try CorpusAgreement.check(corpus, folder: "webp", decoder: WebPCodec())
        print("webp corpus: \(summary)")
        #expect(summary.checked == corpus.entries(in: "webp").count)
        #expect(summary.agreed == summary.checked, "unexpected results: \(summary.unexpected)")
    }
}
