import Foundation
import Imago

/// `imago info SRC… [--json]`: decodes each source and describes it.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info", synopsis: "SRC… [--header \"NAME: VALUE\"]… [--json]",
        summary:
            "Decodes each source and describes it: format, size, frames, loop count, orientation, alpha, "
            + "colour profile and what the decoder tolerated; --json adds ThumbHash and BlurHash placeholders.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: nil),
        flags: [.toggle("json", "print one JSON object per line per source"), HeaderOption.flag])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let json = arguments.has("json")
        let loader = CommandLoader(headers: try HeaderOption.headers(arguments))
        var failures = 0
        for source in arguments.positionals {
            do {
                // The image as stored: its orientation is described, not applied.
                let response = try await loader.image(source) { $0.appliesOrientation = false }
                let (image, bytes) = (response.image, response.metrics.byteCount)
                if json {
                    // The placeholders are CPU-bound: on the compute threads, not the cooperative pool.
                    let info = try await WorkExecutor.compute.run {
                        try ImageInfo(image: image, orientation: image.orientation, bytes: bytes)
                    }
                    Console.print(describeJSON(image, info: info, source: source).text)
                } else {
                    Console.print(describeText(image, source: source, bytes: bytes))
                }
            } catch {
                failures += 1
                let error = ImagoError.wrapping(error, source: source)
                Console.report(error, source: source)
                if json { Console.print(errorJSON(error, source: source).text) }
            }
        }
        return ExitStatus(failures: failures)
    }

    /// `serve`'s `/info` fields (`ImageInfo`: `width` and `height` upright, `iccProfile`, `thumbhash`,
    /// `blurhash`, …) with the source, the stored size, the loop count, `colorProfile` and the warnings.
    static func describeJSON(_ image: DecodedImage, info: ImageInfo, source: String) -> JSONOutput {
        let profile: JSONOutput = info.iccProfile.map { .string($0) } ?? .null
        return .object([
            ("source", .string(source)),
            ("format", .string(info.format)),
            ("width", .int(info.width)),
            ("height", .int(info.height)),
            ("storedWidth", .int(image.width)),
            ("storedHeight", .int(image.height)),
            ("frames", .int(info.frames)),
            ("loopCount", .int(image.loopCount)),
            ("durations", .array(info.durations.map { JSONOutput.rounded($0, digits: 4) })),
            ("orientation", .int(info.orientation)),
            ("hasAlpha", .bool(info.hasAlpha)),
            ("bytes", .int(info.bytes)),
            ("iccProfile", profile),
            ("colorProfile", profile),
            ("thumbhash", .string(info.thumbhash)),
            ("blurhash", .string(info.blurhash)),
            ("warnings", .array(image.warnings.map { .string($0) })),
        ])
    }

    /// The object a failed source gives with `--json`.
    static func errorJSON(_ error: ImagoError, source: String) -> JSONOutput {
        .object([
            ("source", .string(source)),
            ("error", .object([("kind", .string(error.kind.name)), ("message", .string(error.reason))])),
        ])
    }

    static func describeText(_ image: DecodedImage, source: String, bytes: Int) -> String {
        var parts = ["\(image.format.rawValue) \(image.width)x\(image.height)"]
        if image.isAnimated {
            let total = image.durations.reduce(0, +)
            let loops = image.loopCount == 0 ? "loops forever" : "plays \(image.loopCount)x"
            parts.append("\(image.frames.count) frames, \(String(format: "%.2f", total)) s, \(loops)")
        }
        if image.orientation != .up { parts.append("orientation \(image.orientation.rawValue)") }
        parts.append(image.hasAlpha ? "alpha" : "opaque")
        if let profile = image.colorProfileDescription { parts.append("profile \"\(profile)\"") }
        parts.append(ByteFormat.string(bytes))
        let line = "\(source): " + parts.joined(separator: ", ")
        // What the decoder tolerated (corrupt data decoded past, a profile ignored), one indented line each.
        return ([line] + image.warnings.map { "  warning: \($0)" }).joined(separator: "\n")
    }
}
