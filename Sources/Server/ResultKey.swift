import Foundation
import Imago

/// The one key of a finished answer, built in one place: what is rendered (an image, or `/info`'s report), the
/// options in their canonical form (so every grammar and spelling that means the same has one key), how it is
/// encoded, the format asked for and the normalised source. The result cache, the fleet's result store and the
/// render lease all use it.
struct ResultKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's text.
    let text: String

    /// `detector`: the identifier of the detector whose answer the render depends on (faces), if any; `choice` says
    /// how `q=auto` and `f=best` choose (the search's settings, the candidates the client accepts).
    init(
        _ kind: RenderJob.Kind, options: ProcessingOptions, encoding: EncodeOptions, format: ImageFormat?, source: URL,
        detector: String? = nil, choice: String = ""
    ) {
        let what = kind == .info ? "info|" : ""
        let detected = detector.map { "|detector=\($0)" } ?? ""
        text =
            "\(what)\(options.canonical)\(detected)|\(encoding.cacheKeyComponent)|\(format?.rawValue ?? "-")\(choice)|"
            + source.absoluteString
    }

    /// The key component of a search's settings and `f=best`'s candidates (empty for neither).
    static func choice(autoQuality: AutoQuality?, bestFormats: [ImageFormat]?) -> String {
        var text = ""
        if let auto = autoQuality {
            text += "|aq=\(auto.target):\(auto.minQuality):\(auto.maxQuality):\(auto.maxEncodes)"
        }
        if let formats = bestFormats { text += "|best=" + formats.map(\.rawValue).joined(separator: ".") }
        return text
    }

    /// The fleet's lease on rendering it.
    var leaseName: String { "render:" + SHA256.hex(Array(text.utf8)) }

    var description: String { text }
}
