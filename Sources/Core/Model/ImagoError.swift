import Foundation

/// The one error type of the toolkit: every failure a user sees is an `ImagoError`.
///
/// Switch on `kind` to react; show `description`, which names the source.
/// Two errors are equal when their kind, reason, source and `retryAfter` are: the underlying error and the attempt
/// count are context, not identity.
public struct ImagoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in a form a program can switch on.
    public enum Kind: Sendable, Hashable {
        /// The source is malformed (no host, control characters, a bad `data:` URI, a missing file, …).
        case invalidSource
        /// No transport serves the source's scheme.
        case unsupportedScheme
        /// The transport failed: an HTTP status when there was one; `nil` for failures that trying again would not
        /// mend (TLS and certificates, DNS, a bad response, a file that cannot be read, a plugin's own error).
        case transportFailed(status: Int?)
        /// The connection failed or was cut before the whole answer arrived (refused, reset, lost, truncated):
        /// worth another attempt.
        case connectionFailed
        /// A deadline ran out.
        case timedOut
        /// The response or file is larger than the configured cap.
        case tooLarge
        /// The bytes could not be decoded; `format` is `nil` when no decoder recognised them.
        case decodingFailed(format: ImageFormat?)
        /// The image could not be encoded.
        case encodingFailed(format: ImageFormat?)
        /// A decoding limit (pixels, frames) was exceeded; checked before the work.
        case limitExceeded
        /// The load was cancelled.
        case cancelled
        /// A cache failed to read or write.
        case cacheFailed
        /// A processor failed.
        case processingFailed
        /// A configuration is invalid; the message names the key's path.
        case invalidConfiguration
        /// The transport's connection filter refused every address of the source's host; nothing was sent.
        /// Not worth retrying: the same addresses would be refused again.
        case addressRefused

        /// A stable name for scripts and JSON output, for example `"transportFailed"`.
        public var name: String {
            switch self {
            case .invalidSource: "invalidSource"
            case .unsupportedScheme: "unsupportedScheme"
            case .transportFailed: "transportFailed"
            case .connectionFailed: "connectionFailed"
            case .timedOut: "timedOut"
            case .tooLarge: "tooLarge"
            case .decodingFailed: "decodingFailed"
            case .encodingFailed: "encodingFailed"
            case .limitExceeded: "limitExceeded"
            case .cancelled: "cancelled"
            case .cacheFailed: "cacheFailed"
            case .processingFailed: "processingFailed"
            case .invalidConfiguration: "invalidConfiguration"
            case .addressRefused: "addressRefused"
            }
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// A human-readable reason, without the source (for example `"404 Not Found"`).
    public var reason: String
    /// The source the failure concerns (URL, path or configuration file), when there is one.
    public var source: String?
    /// Seconds the server asked to wait before retrying (HTTP `Retry-After`), when it did.
    public var retryAfter: Double?
    /// The error this one was made from (a `URLError`, a plugin's own error, a POSIX error), when there was one.
    public var underlying: (any Error & Sendable)?
    /// Transport fetches made before the load failed (retries included; 0 when none was started).
    public var attempts: Int

    /// Creates an error.
    public init(
        _ kind: Kind, _ reason: String, source: String? = nil, retryAfter: Double? = nil,
        underlying: (any Error & Sendable)? = nil, attempts: Int = 0
    ) {
        self.kind = kind
        self.reason = reason
        self.source = source
        self.retryAfter = retryAfter
        self.underlying = underlying
        self.attempts = attempts
    }

    public static func == (lhs: ImagoError, rhs: ImagoError) -> Bool {
        lhs.kind == rhs.kind && lhs.reason == rhs.reason && lhs.source == rhs.source
            && lhs.retryAfter == rhs.retryAfter
    }

    /// The reason, prefixed with the source when there is one: `https://x/a.png: 404 Not Found`.
    public var description: String {
        guard let source, !source.isEmpty else { return reason }
        return "\(ImagoError.displayName(of: source)): \(reason)"
    }

    /// The same error, naming `source` if it did not name one yet.
    public func naming(_ source: String) -> ImagoError {
        var copy = self
        if copy.source == nil { copy.source = source }
        return copy
    }

    /// The HTTP status, for transport failures that had one.
    public var statusCode: Int? {
        if case .transportFailed(let status) = kind { return status }
        return nil
    }

    /// The same error, recording `attempts` transport fetches.
    public func with(attempts: Int) -> ImagoError {
        var copy = self
        copy.attempts = attempts
        return copy
    }

    /// Wraps any error as an `ImagoError`, keeping it as `underlying`: cancellation becomes `.cancelled`,
    /// connection refusals and resets (`POSIXError`, `URLError`) `.connectionFailed`, timeouts `.timedOut`, and
    /// anything else foreign a transport failure without status (not retried).
    public static func wrapping(_ error: any Error, source: String? = nil) -> ImagoError {
        if let error = error as? ImagoError { return source.map(error.naming) ?? error }
        let kind = classify(error)
        let reason = kind == .cancelled ? "cancelled" : String(describing: error)
        return ImagoError(kind, reason, source: source, underlying: error)
    }

    /// The kind a foreign error gets.
    private static func classify(_ error: any Error) -> Kind {
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError {
            switch error.code {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet: return .connectionFailed
            default: return .transportFailed(status: nil)
            }
        }
        if let error = error as? POSIXError {
            switch error.code {
            case .ECONNREFUSED, .ECONNRESET, .ECONNABORTED, .EPIPE, .ENETDOWN, .ENETUNREACH, .EHOSTUNREACH:
                return .connectionFailed
            case .ETIMEDOUT: return .timedOut
            default: return .transportFailed(status: nil)
            }
        }
        return .transportFailed(status: nil)
    }

    /// Long `data:` URIs are shortened so a message stays one readable line.
    static func displayName(of source: String) -> String {
        guard source.hasPrefix("data:"), source.count > 48 else { return source }
        return String(source.prefix(40)) + "…(\(source.utf8.count) bytes)"
    }
}

extension ImagoError: LocalizedError {
    public var errorDescription: String? { description }
}
