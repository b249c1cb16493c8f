import Foundation
import ImagoCore

/// What one libcurl fetch sends, checked before anything leaves the machine: the URL and the header lines.
struct CurlRequest: Sendable {
    /// The source as the caller named it (errors name it).
    let source: String
    /// The URL to fetch now (a redirect's target after a redirect).
    var url: URL
    /// Header names and values in the order they are sent; names unique regardless of case.
    var headers: [(name: String, value: String)]
    /// The loader's limits and source policy for this fetch (every hop and connection is checked against them).
    let limits: FetchLimits

    /// Merges the configured and per-request headers (later wins, names compared without case) and validates all.
    init(_ request: TransportRequest, configuration: CurlTransport.Configuration) throws {
        url = try HTTPRequestValidation.validatedURL(request.url)
        source = request.url.absoluteString
        limits = request.limits
        var merged: [(name: String, value: String)] = []
        func set(_ name: String, _ value: String) {
            merged.removeAll { $0.name.lowercased() == name.lowercased() }
            merged.append((name, value))
        }
        set("User-Agent", configuration.userAgent)
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) { set(name, value) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { set(name, value) }
        if let etag = request.ifNoneMatch { set("If-None-Match", etag) }
        if let date = request.ifModifiedSince { set("If-Modified-Since", date) }
        for header in merged {
            try HTTPRequestValidation.validateHeader(name: header.name, value: header.value, source: source)
        }
        headers = merged
    }

    /// The request for a redirect's target: credentials meant for one origin are not handed to another.
    func redirected(to target: URL) -> CurlRequest {
        var next = self
        next.url = target
        if !HTTPRequestValidation.isSameOrigin(url, target) {
            next.headers.removeAll { ["authorization", "cookie"].contains($0.name.lowercased()) }
        }
        return next
    }

    /// The lines libcurl sends (`Name;` is its spelling of a header with an empty value).
    var headerLines: [String] {
        headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
    }
}
