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
    /// What the grammar skipped (thumbor's unknown filters), named in the answer's `Imago-Skipped-Filters`.
    var skipped: [String] = []
    /// The format asked for (`f=`, or the one `Accept` chose for `f=auto`); nil: the source's own.
    var format: ImageFormat?
    /// Whether the answer depends on `Accept` (`f=auto`, `f=best`).
    var varies: Bool
    /// `f=best`'s candidates, those the client accepts, in order; nil for another format.
    var bestFormats: [ImageFormat]?
    /// The search `q=auto` (or `f=best` without `q`) asks for, over the service's settings; nil for a fixed quality.
    var autoQuality: AutoQuality?
    /// The request's deadline, which bounds a quality search (set when the request is answered later).
    var deadline: ContinuousClock.Instant?
    /// A decision the fleet already made for this key (read from the result store): rendered in one encode.
    var known: QualityDecision?
    var key: ResultKey

    /// Whether the source's own format is the answer's (no `f`, no `f=auto` choice, no `f=best`).
    var keepsSourceFormat: Bool { format == nil && bestFormats == nil }

    /// The option `key` as the user wrote it.
    func spelling(of key: String) -> String { spellings[key] ?? key }
}
