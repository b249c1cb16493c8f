/// Why the server refuses or gives up a request, as a kind a program can switch on: what parsers, the source
/// policy and the render path throw. The HTTP status is decided in one place, at the edge
/// (`ServeFailure(answering:)`), from the kind, never from the message.
public struct RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The path cannot be read: its segments, its encoded source (400).
        case malformedPath
        /// The signature does not sign the path, or a signature is missing (403).
        case badSignature
        /// The URL's expiry time is past (410).
        case expired
        /// Nothing is served here: no grammar at the path, or a grammar that answers an expired URL as not found,
        /// as imgproxy does (404).
        case notFound
        /// A form of the grammar Imago does not implement (imgproxy's encrypted sources) (501).
        case notImplemented
        /// A method other than GET and HEAD (405).
        case methodNotAllowed
        /// A request target over the server's limit (414).
        case targetTooLong
        /// A render that can never fit the memory it needs, whatever else runs (422).
        case overBudget
        /// Too many requests waiting already (503, with `Retry-After`).
        case overloaded
        /// The server is stopping (503, with `Retry-After`).
        case shuttingDown
        /// `serve.requestTimeout` ran out before the request's work began: it waited in a queue (503, with
        /// `Retry-After`).
        case timedOutWaiting
        /// `serve.requestTimeout` ran out while its work was under way (504).
        case timedOut
        /// The client closed its connection before the answer (499, for the access log only).
        case clientLeft
        /// The operator's configuration cannot serve the request (a watermark that does not load) (500).
        case misconfigured
    }

    /// What went wrong.
    public var kind: Kind
    /// One line saying so, sent as the body.
    public var message: String

    /// An error of `kind`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
