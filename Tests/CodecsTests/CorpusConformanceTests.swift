import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// Every corpus file through our decoders, against the Pillow/ImageMagick references (see `CorpusConformance`).
@Suite struct CorpusConformanceTests {
    /// A corpus folder and the decoders that read it; add a line per codec.
    struct Folder: CustomStringConvertible, Sendable {
        let name: String
        let decoders: @Sendable () -> [any ImageDecoder]
        var description: String { name }
    }

    static let folders: [Folder] = [
        Folder(name: "pngsuite") { [PNGCodec()] },
        Folder(name: "png-extra") { [PNGCodec()] },
        Folder(name: "jpeg") { [JPEGCodec(), PNGCodec()] },  // one .jpg there is a PNG
    ]

    @Test(arguments: folders)
    func folderAgreesWithReferences(_ folder: Folder) throws {
        let corpus = try CorpusReference.load()
        let summary = CorpusConformance(corpus: corpus).run(folder: folder.name, decoders: folder.decoders())
        #expect(!summary.outcomes.isEmpty, "no corpus files under \(folder.name)")
        for outcome in summary.outcomes {
            let judgement = outcome.agrees.map { $0 ? "agrees" : "DISAGREES" } ?? "references differ"
            // Files that agree are counted in the summary; the log lists only what deserves a look.
            if outcome.agrees != true {
                print("[corpus] \(outcome.entry.file) [\(outcome.entry.verdict)] \(judgement): \(outcome.detail)")
            }
            #expect(outcome.agrees != false, "\(outcome.entry.file) [\(outcome.entry.verdict)]: \(outcome.detail)")
        }
        print("[corpus] \(summary.line)")
    }
}
