import Imago

/// A request the server answers with an error status and a one-line reason.
public struct ServeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status (400, 403, …).
    public var status: Int
    /// One line, sent as the `text/plain` body.
    public var reason: String
    /// Seconds a client should wait (503s), sent as `Retry-After`.
    public var retryAfter: Int?

    /// A failure with `status` and `reason`.
    public init(_ status: Int, _ reason: String, retryAfter: Int? = nil) {
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    public var description: String { "\(status) \(reason)" }

    /// The status a loader failure maps to: the source's own 404 is 404, the source's other failures 502, a
    /// source timeout 504, a too-large source 413, bytes that are no image 415, pixel limits 422, options that
    /// cannot apply to the image (a crop outside it) 400.
    public init(_ error: ImagoError) {
        let reason = error.reason
        switch error.kind {
        case .transportFailed(let status) where status == 404: self.init(404, "the source answered 404")
        case .transportFailed(let status):
            self.init(502, "the source failed: " + (status.map { "HTTP \($0)" } ?? reason))
        case .connectionFailed: self.init(502, "the source failed: \(reason)")
        case .timedOut: self.init(504, "the source timed out")
        case .tooLarge: self.init(413, "the source is too large: \(reason)")
        case .decodingFailed: self.init(415, "the source is not an image that can be decoded: \(reason)")
        case .limitExceeded: self.init(422, "the image is over the pixel limits: \(reason)")
        // The options' processors refuse what cannot apply to this image (a crop with nothing inside it).
        case .processingFailed: self.init(400, "the options do not apply to this image: \(reason)")
        // A missing file (the file transport's `no such file`) is the file source's 404.
        case .invalidSource where reason.hasPrefix("no such"): self.init(404, "the source does not exist")
        case .invalidSource: self.init(400, "invalid source: \(reason)")
        case .unsupportedScheme: self.init(403, "the source's scheme is not served")
        case .addressRefused: self.init(403, reason)
        case .cancelled: self.init(503, "the request was cancelled", retryAfter: 1)
        default: self.init(500, "\(error.kind.name): \(reason)")
        }
    }
}
