import Foundation
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

    /// The status a loader failure maps to (see `init(answering:)`).
    public init(_ error: ImagoError) {
        self.init(answering: error)
    }

    /// The answer to a request that failed with `error`: the one place a status is chosen, from the error's type
    /// and kind, never its message. A bad option (`OptionError`) is 400; a request error by its kind; a loader
    /// failure: the source's own 404 is 404, its other failures 502, a source timeout 504, a too-large source 413,
    /// bytes that are no image 415, limits 422, options that cannot apply to the image (a crop with nothing inside
    /// it) 400, a missing file 404, a refused source 403.
    public init(answering error: any Error) {
        switch error {
        case let failure as ServeFailure: self = failure
        case let option as OptionError: self.init(400, option.message)
        case let quality as QualityError: self.init(400, quality.reason)
        case let request as RequestError: self.init(request)
        case let error as ImagoError: self.init(loading: error)
        default: self.init(loading: ImagoError.wrapping(error))
        }
    }

    private init(_ error: RequestError) {
        let message = error.message
        switch error.kind {
        case .malformedPath: self.init(400, message)
        case .badSignature: self.init(403, message)
        case .expired: self.init(410, message)
        case .notFound: self.init(404, message)
        case .notImplemented: self.init(501, message)
        case .methodNotAllowed: self.init(405, message)
        case .targetTooLong: self.init(414, message)
        case .overBudget: self.init(422, message)
        case .overloaded, .shuttingDown, .timedOutWaiting: self.init(503, message, retryAfter: 1)
        case .timedOut: self.init(504, message)
        case .clientLeft: self.init(499, message)
        case .misconfigured: self.init(500, message)
        }
    }

    private init(loading error: ImagoError) {
        let reason = error.reason
        switch error.kind {
        case .transportFailed(let status) where status == 404: self.init(404, "the source answered 404")
        case .transportFailed(let status):
            self.init(502, "the source failed: " + (status.map { "HTTP \($0)" } ?? reason))
        case .connectionFailed: self.init(502, "the source failed: \(reason)")
        case .timedOut: self.init(504, "the source timed out")
        case .tooLarge: self.init(413, "the source is too large: \(reason)")
        case .decodingFailed: self.init(415, "the source is not an image that can be decoded: \(reason)")
        case .limitExceeded: self.init(422, "over the limits: \(reason)")
        // The options' processors refuse what cannot apply to this image (a crop with nothing inside it).
        case .processingFailed: self.init(400, "the options do not apply to this image: \(reason)")
        // A missing file is the file source's 404: the transport keeps the system's ENOENT as the cause.
        case .invalidSource where Self.isMissingFile(error): self.init(404, "the source does not exist")
        case .invalidSource: self.init(400, "invalid source: \(reason)")
        case .unsupportedScheme: self.init(403, "the source's scheme is not served")
        case .addressRefused: self.init(403, reason)
        case .cancelled: self.init(503, "the request was cancelled", retryAfter: 1)
        default: self.init(500, "\(error.kind.name): \(reason)")
        }
    }

    private static func isMissingFile(_ error: ImagoError) -> Bool {
        guard let cause = error.underlying as? POSIXError else { return false }
        return cause.code == .ENOENT || cause.code == .ENOTDIR
    }
}
