import Foundation
import Imago

/// What a request asks the server to render, read and checked: the source (normalised by the source policy),
/// the options, the format negotiated, and the one key of its answer.
struct RenderJob: Sendable {
    /// An image, or `/info`'s report on one.
    enum Kind: Sendable, Hashable {
        case image
        case info
    }

    var kind: Kind
    var url: URL
    var options: ProcessingOptions
    /// Each option as the user wrote it in their grammar, for messages about the render.
    var spellings: [String: String]
    /// The format asked for (`f=`, or the one `Accept` chose for `f=auto`); nil: the source's own.
    var format: ImageFormat?
    /// Whether the answer depends on `Accept` (`f=auto`).
    var varies: Bool
    var key: ResultKey

    /// The option `key` as the user wrote it.
    func spelling(of key: String) -> String { spellings[key] ?? key }
}
