import Foundation
import Imago

/// The one key of a finished answer, built in one place: what is rendered (an image, or `/info`'s report), the
/// options in their canonical form (so every grammar and spelling that means the same has one key), how it is
/// encoded, the format asked for and the normalised source. The result cache, the fleet's result store and the
/// render lease all use it.
struct ResultKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's text.
    let text: String

    /// `detector`: the identifier of the detector whose answer the render depends on (faces), if any.
    init(
        _ kind: RenderJob.Kind, options: ProcessingOptions, encoding: EncodeOptions, format: ImageFormat?, source: URL,
        detector: String? = nil
    ) {
        let what = kind == .info ? "info|" : ""
        let detected = detector.map { "|detector=\($0)" } ?? ""
        text =
            "\(what)\(options.canonical)\(detected)|\(encoding.cacheKeyComponent)|\(format?.rawValue ?? "-")|"
            + source.absoluteString
    }

    /// The fleet's lease on rendering it.
    var leaseName: String { "render:" + SHA256.hex(Array(text.utf8)) }

    var description: String { text }
}
