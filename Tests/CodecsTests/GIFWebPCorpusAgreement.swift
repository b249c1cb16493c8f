import Foundation
import ImagoCodecs
import ImagoCore

/// Decodes every file of a corpus folder and compares it with the reference its verdict calls for.
struct CorpusAgreement: CustomStringConvertible {
    /// Why a file is allowed to differ from the references, and what is checked instead.
    ///
    /// Choices where browsers and the references differ (each checked here or in `GIFCodecTests`):
    /// - an opaque first frame that leaves part of the screen uncovered: browsers leave that part transparent; we
    ///   show the screen's background colour there, as both references do when they agree
    ///   (`border_touching_layers.gif`, checked as `identical`);
    /// - junk bytes between blocks: browsers stop there; we skip them as Pillow and ImageMagick do, so frames after
    ///   them count (`test_extents_transparency.gif`: 2 frames, checked as `identical`).
    enum KnownDifference {
        /// The references differ on the uncovered part of an opaque first frame: ImageMagick (and the GIF spec)
        /// show the screen's background colour, Pillow palette entry 0. We follow ImageMagick. Checked: its hash.
        case followsImageMagick
        /// An LZW minimum code size of 11, outside the GIF spec (at most 8): Pillow and ImageMagick accept it,
        /// giflib refuses any above 8 (as `D_GIF_ERR_READ_FAILED`), and so does Chrome (Wuffs: "bad literal
        /// width"); Firefox accepts it. Decoding it would mean a second LZW decoder beside giflib's. We must fail
        /// with a decoding error, not crash.
        case giflibRefuses
    }

    static let knownDifferences: [String: KnownDifference] = [
        "gif/image-rs-image/anim/issue_1455_undersized.gif": .followsImageMagick,
        "gif/pillow/issue_2811.gif": .giflibRefuses,
    ]

    var checked = 0
    /// Files whose result is the references' (for `size_mismatch`: ImageMagick's, which clips to the screen).
    var agreed = 0
    /// Files in `knownDifferences` that passed their own check.
    var documented = 0
    var unexpected: [String] = []

    var description: String {
        "\(agreed) of \(checked) files agree with the references, \(documented) documented differences, "
            + "\(unexpected.count) unexpected"
    }

    static func check(_ corpus: CorpusReference, folder: String, decoder: any ImageDecoder) throws -> CorpusAgreement {
        var result = CorpusAgreement()
        for entry in corpus.entries(in: folder) {
            result.checked += 1
            let data = try corpus.data(entry)
            let outcome: Result<DecodedImage, any Error> = Result {
                try decoder.decode(data, options: CorpusConformance.options)
            }
            if let known = knownDifferences[entry.file] {
                if let problem = problem(with: outcome, for: entry, known: known) {
                    result.unexpected.append("\(entry.file): \(problem)")
                } else {
                    result.documented += 1
                }
            } else if let problem = problem(with: outcome, for: entry) {
                result.unexpected.append("\(entry.file): \(problem)")
            } else {
                result.agreed += 1
            }
        }
        return result
    }

    /// What is wrong with `outcome` for `entry`, or nil when it agrees.
    static func problem(
        with outcome: Result<DecodedImage, any Error>, for entry: CorpusReference.Entry
    ) -> String? {
        switch (entry.verdict, outcome) {
        case ("both_fail", .success(let image)):
            return "both references fail, we decoded \(image.width)x\(image.height)"
        case ("both_fail", .failure(let error)):
            return error is ImagoError ? nil : "not an ImagoError: \(error)"
        case (_, .failure(let error)):
            return "we failed: \(error)"
        case (let verdict, .success(let image)):
            let raster = image.raster
            // size_mismatch: frames outside the screen; Pillow grows the canvas, ImageMagick clips as we do.
            let reference = verdict == "size_mismatch" ? entry.imagemagick : entry.pillow
            guard raster.width == reference.width, raster.height == reference.height else {
                return
                    "size \(raster.width)x\(raster.height), expected \(reference.width ?? 0)x\(reference.height ?? 0)"
            }
            if let frames = entry.pillow.frames, frames == entry.imagemagick.frames,
                frames != image.frames.count
            {
                return "\(image.frames.count) frames, the references have \(frames)"
            }
            if verdict == "identical_canon" {
                return CorpusReference.canonicalSHA256(raster) == reference.sha256_rgba_canon ? nil : "pixels differ"
            }
            return CorpusReference.sha256(raster) == reference.sha256_rgba ? nil : "pixels differ (\(verdict))"
        }
    }

    /// The check for a file in `knownDifferences`.
    static func problem(
        with outcome: Result<DecodedImage, any Error>, for entry: CorpusReference.Entry, known: KnownDifference
    ) -> String? {
        switch (known, outcome) {
        case (.giflibRefuses, .failure(let error)):
            guard let error = error as? ImagoError, error.kind == .decodingFailed(format: .gif) else {
                return "expected a GIF decoding error, got \(error)"
            }
            return nil
        case (_, .failure(let error)):
            return "we failed: \(error)"
        case (.giflibRefuses, .success):
            return "giflib was expected to refuse it"
        case (.followsImageMagick, .success(let image)):
            return CorpusReference.sha256(image.raster) == entry.imagemagick.sha256_rgba ? nil : "pixels differ"
        }
    }
}
