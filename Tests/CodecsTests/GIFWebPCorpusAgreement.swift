import Foundation
import ImagoCodecs
import ImagoCore

/// Decodes every file of a corpus folder and compares it with the reference its verdict calls for.
struct CorpusAgreement: CustomStringConvertible {
    /// Why a file is allowed to differ from the references, and what is checked instead.
    enum KnownDifference {
        /// The first frame does not cover the logical screen and has no transparency: both references fill the
        /// rest with the background colour (ImageMagick: the screen's background index; Pillow: palette entry 0),
        /// browsers leave it transparent, and so do we. Checked: ImageMagick's pixels, with our transparent
        /// pixels read as the opaque background colour.
        case transparentBackground
        /// Both references put the background colour's RGB under the fully transparent uncovered area, we put 0:
        /// checked with the canonical hash (transparent pixels zeroed).
        case sameUnderTransparentPixels
        /// Junk bytes follow the first frame. Pillow and ImageMagick skip bytes until they find a block; browsers
        /// (and giflib) stop there, so we show one frame. Frame 0 must still match.
        case stopsAtJunk
        /// An LZW minimum code size of 11: Pillow and ImageMagick accept it, giflib refuses any above 8 (as
        /// `D_GIF_ERR_READ_FAILED`). We must fail with a decoding error, not crash.
        case giflibRefuses
    }

    static let knownDifferences: [String: KnownDifference] = [
        "gif/image-rs-image/anim/border_touching_layers.gif": .transparentBackground,
        "gif/image-rs-image/anim/issue_1455_undersized.gif": .transparentBackground,
        "gif/image-rs-image/anim/large-gif-anim-combine.gif": .sameUnderTransparentPixels,
        "gif/pillow/dispose_bgnd_transparency.gif": .sameUnderTransparentPixels,
        "gif/pillow/test_extents_transparency.gif": .stopsAtJunk,
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
                if let problem = problem(with: outcome, for: entry, known: known, data: data) {
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
        with outcome: Result<DecodedImage, any Error>, for entry: CorpusReference.Entry, checkFrames: Bool = true
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
            if checkFrames, let frames = entry.pillow.frames, frames == entry.imagemagick.frames,
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
        with outcome: Result<DecodedImage, any Error>, for entry: CorpusReference.Entry, known: KnownDifference,
        data: Data
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
        case (.stopsAtJunk, _):
            return problem(with: outcome, for: entry, checkFrames: false)
        case (.sameUnderTransparentPixels, .success(let image)):
            let expected = entry.pillow.sha256_rgba_canon
            return CorpusReference.canonicalSHA256(image.raster) == expected ? nil : "pixels differ"
        case (.transparentBackground, .success(let image)):
            guard let background = GIFBytes.backgroundColor(data) else { return "no background colour" }
            var pixels = image.raster.pixels
            for offset in stride(from: 0, to: pixels.count, by: 4) where pixels[offset + 3] == 0 {
                pixels.replaceSubrange(offset..<offset + 4, with: background + [255])
            }
            return SHA256.hex(pixels) == entry.imagemagick.sha256_rgba ? nil : "pixels differ"
        }
    }
}

/// Reads fields of a GIF header directly, for checks that must not go through the decoder under test.
enum GIFBytes {
    /// The RGB of the logical screen's background index in the global colour table.
    static func backgroundColor(_ data: Data) -> [UInt8]? {
        let bytes = [UInt8](data.prefix(13 + 768))
        guard bytes.count >= 13, bytes[10] & 0x80 != 0 else { return nil }
        let offset = 13 + 3 * Int(bytes[11])
        guard offset + 3 <= bytes.count else { return nil }
        return Array(bytes[offset..<offset + 3])
    }
}
