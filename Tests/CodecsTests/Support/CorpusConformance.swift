import Foundation
import ImagoCodecs
import ImagoCore

/// Runs every file of a corpus folder through our decoders and compares with `reference.json`.
///
/// Rules, where the two references agree: `identical` → our RGBA SHA-256 equals theirs; `identical_canon` → the
/// canonical hashes (transparent pixels zeroed) are equal; `near` (16-bit PNG, CMYK rounding) → we equal either
/// reference's hash, or are within ±2 of an oracle image when the corpus has one; `both_fail` → we throw an
/// `ImagoError`. Files the references disagree on are recorded (what we do) but not judged, except where the
/// corpus notes name the right answer (`knownCorrect`). Neither reference applies embedded ICC profiles, so files
/// are decoded with `ColorProfileHandling.ignore` (colour management has its own tests against Pillow's ImageCms).
struct CorpusConformance {
    /// What we did with one file.
    struct Outcome {
        let entry: CorpusReference.Entry
        /// `nil` when the references disagree and no rule applies, or when we refuse by policy.
        let agrees: Bool?
        let detail: String
    }

    /// A folder's result.
    struct Summary {
        let folder: String
        let outcomes: [Outcome]
        /// Files both references decode alike or both refuse.
        var judged: [Outcome] { outcomes.filter { Self.agreeingVerdicts.contains($0.entry.verdict) } }
        var agreeing: Int { judged.filter { $0.agrees == true }.count }
        var line: String {
            "\(folder): agreement \(agreeing) of \(judged.count) where the references agree (\(outcomes.count) files)"
        }
        static let agreeingVerdicts: Set = ["identical", "identical_canon", "near", "both_fail"]
    }

    /// Disagreements the corpus notes settle: file → which reference is right.
    static let knownCorrect: [String: Reference] = [
        // Pillow does not scale the tRNS key of 4-bit grey; ImageMagick (libpng) and the PngSuite oracle agree.
        "pngsuite/tbbn0g04.png": .imagemagick
    ]

    enum Reference { case pillow, imagemagick }

    let corpus: CorpusReference

    /// The options every corpus file is decoded with: the references show stored samples, not colour-managed ones.
    static let options = DecodeOptions(colorProfiles: .ignore)

    /// Decodes every file under `folder` with the first of `decoders` that sniffs it (none: a failure).
    func run(folder: String, decoders: [any ImageDecoder]) -> Summary {
        Summary(folder: folder, outcomes: corpus.entries(in: folder).map { check($0, decoders: decoders) })
    }

    private func check(_ entry: CorpusReference.Entry, decoders: [any ImageDecoder]) -> Outcome {
        let result: Result<DecodedImage, any Error>
        do {
            let data = try corpus.data(entry)
            let header = data.prefix(ImageFormat.sniffLength)
            guard let decoder = decoders.first(where: { $0.canDecode(header) }) else {
                throw ImagoError(.decodingFailed(format: nil), "no decoder recognises the bytes")
            }
            result = .success(try decoder.decode(data, options: Self.options))
        } catch {
            result = .failure(error)
        }
        return judge(entry, result)
    }

    private func judge(_ entry: CorpusReference.Entry, _ result: Result<DecodedImage, any Error>) -> Outcome {
        switch result {
        case .failure(let error):
            let typed = error is ImagoError
            let detail = "fails: \(error)"
            switch entry.verdict {
            case "both_fail": return Outcome(entry: entry, agrees: typed, detail: typed ? detail : "untyped " + detail)
            case "identical", "identical_canon", "near":
                return Outcome(entry: entry, agrees: false, detail: detail)
            default: return Outcome(entry: entry, agrees: typed ? nil : false, detail: detail)
            }
        case .success(let image):
            let raster = image.raster
            let hash = CorpusReference.sha256(raster)
            let pillow = entry.pillow
            let magick = entry.imagemagick
            let matches = { (verdict: CorpusReference.Verdict) in
                verdict.width == raster.width && verdict.height == raster.height && verdict.sha256_rgba == hash
            }
            let size = "\(raster.width)x\(raster.height)"
            switch entry.verdict {
            case "identical":
                return Outcome(entry: entry, agrees: matches(pillow), detail: "decodes \(size)")
            case "identical_canon":
                let canonical = CorpusReference.canonicalSHA256(raster)
                return Outcome(entry: entry, agrees: pillow.sha256_rgba_canon == canonical, detail: "decodes \(size)")
            case "near":
                if matches(pillow) { return Outcome(entry: entry, agrees: true, detail: "equals Pillow") }
                if matches(magick) { return Outcome(entry: entry, agrees: true, detail: "equals ImageMagick") }
                if let delta = oracleDelta(entry, raster) {
                    return Outcome(entry: entry, agrees: delta <= 2, detail: "max Δ \(delta) from the oracle")
                }
                return Outcome(entry: entry, agrees: false, detail: "matches neither reference, no oracle")
            case "both_fail":
                return Outcome(entry: entry, agrees: false, detail: "decodes \(size) where both references fail")
            default:
                let whom = [matches(pillow) ? "Pillow" : nil, matches(magick) ? "ImageMagick" : nil].compactMap { $0 }
                let detail = "decodes \(size), equals " + (whom.isEmpty ? "neither" : whom.joined(separator: "+"))
                if let right = Self.knownCorrect[entry.file] {
                    let verdict = right == .pillow ? pillow : magick
                    return Outcome(entry: entry, agrees: matches(verdict), detail: detail)
                }
                return Outcome(entry: entry, agrees: nil, detail: detail)
            }
        }
    }

    /// The largest channel difference from the oracle PNG of a file, when the corpus has one.
    private func oracleDelta(_ entry: CorpusReference.Entry, _ raster: Raster) -> Int? {
        let prefix = "jpeg/jpeg-decoder-reftest/"
        guard entry.file.hasPrefix(prefix) else { return nil }
        let name = (entry.file.dropFirst(prefix.count) as Substring).replacingOccurrences(of: ".jpg", with: ".png")
        let url = corpus.root.appendingPathComponent("oracles/jpeg-decoder-reftest-png/" + name)
        guard let data = try? Data(contentsOf: url), let oracle = try? PNGCodec().decode(data).raster,
            oracle.width == raster.width, oracle.height == raster.height
        else { return nil }
        return zip(oracle.pixels, raster.pixels).reduce(0) { Swift.max($0, abs(Int($1.0) - Int($1.1))) }
    }
}
