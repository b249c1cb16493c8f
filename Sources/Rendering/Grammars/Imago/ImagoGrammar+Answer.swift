import Foundation

/// Imago's rows for what changes the answer rather than the pixels: `fn` and `att` (its `Content-Disposition`), the
/// tightened limits `msr`, `msfs`, `maf`, `mafr`, `mrd`, `skp` and `raw` (the source answered unprocessed) and `maxage`
/// (its `Cache-Control`), `autojpg` (an opaque PNG answered as JPEG). Each is in the canonical form, so the result's
/// key.
extension ProcessingOptions {
    static let answerRows: [OptionRow<Void>] = [
        row(
            "fn", "NAME (percent-escaped) or NAME:1 (URL-safe Base64)", arguments: 1...2,
            canonical: { $0.filename.map(canonicalFilename) }
        ) { options, arguments in
            options.filename = try filename(arguments, encoded: try arguments.bool(1) ?? false)
        },
        row("att", "0 or 1", canonical: { $0.attachment ? "1" : nil }) { $0.attachment = try $1.bool(0) ?? false },
        row("msr", megapixelsExpected, canonical: { $0.limits.maxSourcePixels.map(canonicalMegapixels) }) {
            $0.limits.maxSourcePixels = try megapixels($1)
        },
        row("msfs", AnswerValue.bytes.expected, canonical: { $0.limits.maxSourceBytes.map(String.init) }) {
            $0.limits.maxSourceBytes = try AnswerValue.bytes.read($1)
        },
        row("maf", AnswerValue.frames.expected, canonical: { $0.limits.maxFrames.map(String.init) }) {
            $0.limits.maxFrames = try AnswerValue.frames.read($1)
        },
        row("mafr", megapixelsExpected, canonical: { $0.limits.maxFramePixels.map(canonicalMegapixels) }) {
            $0.limits.maxFramePixels = try megapixels($1)
        },
        row("mrd", AnswerValue.side.expected, canonical: { $0.limits.maxResultSide.map(String.init) }) {
            $0.limits.maxResultSide = try AnswerValue.side.read($1)
        },
        // Written only without `raw`, which answers every source unprocessed.
        row(
            "skp", OutputFormat.names.joined(separator: ", ") + " joined by :", arguments: 1...16,
            canonical: { options in
                options.raw || options.skipProcessing.isEmpty
                    ? nil : options.skipProcessing.map(\.rawValue).sorted().joined(separator: ":")
            }
        ) { options, arguments in
            options.skipProcessing = Set(
                try arguments.values.map { name in
                    guard case .format(let format)? = OutputFormat(String(name)) else { throw arguments.malformed() }
                    return format
                })
        },
        row("raw", "0 or 1", canonical: { $0.raw ? "1" : nil }) { $0.raw = try $1.bool(0) ?? false },
        row("maxage", AnswerValue.seconds.expected, canonical: { $0.maxAge.map(String.init) }) {
            $0.maxAge = try AnswerValue.seconds.read($1)
        },
        row("autojpg", "0 or 1", canonical: { $0.autoJPEG ? "1" : nil }) { $0.autoJPEG = try $1.bool(0) ?? false },
    ]

    /// The whole-number values of the answer options, with their bounds, for every grammar that reads them.
    enum AnswerValue {
        case bytes, frames, side, seconds

        var expected: String {
            switch self {
            case .bytes: "a number of bytes from 1"
            case .frames: "a number of frames from 1"
            case .side: "a side in pixels from 1"
            case .seconds: "seconds from 0"
            }
        }

        /// The first argument, within this value's bounds.
        func read(_ arguments: OptionArguments) throws -> Int? {
            switch self {
            case .bytes: try arguments.int(0, in: 1...Int(Int32.max) * 8)
            case .frames: try arguments.int(0, in: 1...999_999_999)
            case .side: try arguments.int(0, in: 1...65_535)
            case .seconds: try arguments.int(0, in: 0...Int(Int32.max))
            }
        }
    }

    /// Longest download name, in UTF-8 bytes (a common file-system limit).
    public static let maxFilenameBytes = 255

    static let megapixelsExpected = "megapixels from 0.0001"

    /// Megapixels (`msr:0.5`) as pixels.
    static func megapixels(_ arguments: OptionArguments) throws -> Int? {
        try arguments.decimal(0, in: 0.0001...1_000_000, expected: megapixelsExpected).map {
            Int(($0 * 1_000_000).rounded())
        }
    }

    static func canonicalMegapixels(_ pixels: Int) -> String { NumberText.canonical(Double(pixels) / 1_000_000) }

    /// A download name as imgproxy writes it: percent-escaped, or URL-safe Base64 (padded or not) when `encoded`.
    /// Empty, over `maxFilenameBytes`, not UTF-8 or with control characters (CR, LF…) is malformed.
    static func filename(_ arguments: OptionArguments, encoded: Bool) throws -> String {
        let expected = "a file name of at most \(maxFilenameBytes) bytes without control characters"
        guard let written = arguments[0] else { throw arguments.malformed(expected) }
        let name = encoded ? Base64URLText.decode(written) : written.removingPercentEncoding
        guard let name, !name.isEmpty, name.utf8.count <= maxFilenameBytes,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw arguments.malformed(expected) }
        return name
    }

    /// The name as itself when it has only letters, digits, `.`, `_` and `-`, else URL-safe Base64 with `:1`.
    static func canonicalFilename(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0))
        }
        return plain ? name : Base64URLText.encode(name) + ":1"
    }
}
