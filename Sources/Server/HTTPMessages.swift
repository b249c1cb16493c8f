import Foundation

/// What the server reads of a request: only GET and HEAD are served, and no body is read.
struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    var method: String
    /// The request target exactly as sent (path and query, percent-escapes kept).
    var target: String
    /// The `Accept` header, for `f=auto`.
    var accept: String?
    /// The `If-None-Match` header, for 304s.
    var ifNoneMatch: String?
    /// The `If-Modified-Since` header, for 304s when the source has a `Last-Modified`.
    var ifModifiedSince: String?
    /// When the request line arrived.
    var time: Date
    var start: ContinuousClock.Instant

    /// The target up to `?`.
    var path: Substring { target[..<(target.firstIndex(of: "?") ?? target.endIndex)] }
}

/// A response to queue: status, headers, body, and where it came from for the access log.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: Data
    /// `result`, `memory`, `disk`, `network` or `none`.
    var cache: String

    init(status: Int, headers: [(String, String)] = [], body: Data = Data(), cache: String = "none") {
        self.status = status
        self.headers = headers
        self.body = body
        self.cache = cache
    }

    /// A one-line `text/plain` body with `Cache-Control: no-store` (and `Retry-After` when the failure has one).
    init(failure: ServeFailure) {
        var headers = [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")]
        if let retryAfter = failure.retryAfter { headers.append(("Retry-After", String(retryAfter))) }
        self.init(status: failure.status, headers: headers, body: Data((failure.reason + "\n").utf8))
    }

    /// A plain-text 200 with `Cache-Control: no-store` (`/health`, `/metrics`).
    static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", contentType), ("Cache-Control", "no-store")],
            body: Data(text.utf8))
    }
}

/// How the server answers a request: at once (on the library's thread), or later (the connection is suspended
/// meanwhile, so no server thread waits for a slow source).
enum HTTPAnswer: Sendable {
    case now(HTTPResponse)
    case later(@Sendable () async -> HTTPResponse)
}
