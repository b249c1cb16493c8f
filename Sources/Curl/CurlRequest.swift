import Foundation
import ImagoCore

/// What one libcurl fetch sends, checked before anything leaves the machine: the URL, the method and body, the
/// header lines, and how the request is signed.
package struct CurlRequest: Sendable {
    /// The source as the caller named it (errors name it).
    package let source: String
    /// The URL to fetch now (a redirect's target after a redirect).
    package var url: URL
    /// Header names and values in the order they are sent; names unique regardless of case.
    package var headers: [(name: String, value: String)]
    /// The loader's limits and source policy for this fetch (every hop and connection is checked against them).
    package let limits: FetchLimits
    /// `GET` (the default), `PUT` (sending `body`) or `DELETE`.
    package var method: String = "GET"
    /// The body a `PUT` sends.
    package var body: Data?
    /// How libcurl signs the request (AWS Signature Version 4), if at all.
    package var signing: CurlSigning?
    /// The URL the response reports as its final one (`TransportMetadata.finalURL`) when it is not `url`: the
    /// source, for a transport that maps a scheme of its own (`s3://`) onto an HTTP endpoint, so that the loader's
    /// source policy sees the source and not the endpoint.
    package var sourceURL: URL?

    /// Merges the configured and per-request headers (later wins, names compared without case) and validates all.
    package init(_ request: TransportRequest, configuration: CurlConfiguration) throws {
        var merged = CurlRequest.mergedHeaders(configuration: configuration, request.headers)
        if let etag = request.ifNoneMatch { Self.set("If-None-Match", etag, in: &merged) }
        if let date = request.ifModifiedSince { Self.set("If-Modified-Since", date, in: &merged) }
        try self.init(url: request.url, headers: merged, limits: request.limits, source: request.url.absoluteString)
    }

    /// A request for `url` with these header lines (validated here), on behalf of `source`.
    package init(url: URL, headers: [(name: String, value: String)], limits: FetchLimits, source: String) throws {
        self.url = try HTTPRequestValidation.validatedURL(url)
        self.source = source
        self.limits = limits
        for header in headers {
            try HTTPRequestValidation.validateHeader(name: header.name, value: header.value, source: source)
        }
        self.headers = headers
    }

    /// The configured `User-Agent` and headers, then `extra` (later wins, names compared without case).
    package static func mergedHeaders(
        configuration: CurlConfiguration, _ extra: [String: String]
    ) -> [(name: String, value: String)] {
        var merged: [(name: String, value: String)] = []
        set("User-Agent", configuration.userAgent, in: &merged)
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) { set(name, value, in: &merged) }
        for (name, value) in extra.sorted(by: { $0.key < $1.key }) { set(name, value, in: &merged) }
        return merged
    }

    /// Sets `name` to `value` in `headers`, replacing any header of that name (compared without case).
    package static func set(_ name: String, _ value: String, in headers: inout [(name: String, value: String)]) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name, value))
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

    /// The lines libcurl sends (`Name;` is its spelling of a header with an empty value), `User-Agent` excepted.
    var headerLines: [String] {
        headers.filter { $0.name.lowercased() != "user-agent" }.map {
            $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)"
        }
    }

    /// The `User-Agent`, sent through `CURLOPT_USERAGENT`: libcurl signs every header of its list, and signers
    /// that leave `User-Agent` out (moto, after botocore) then refuse the signature.
    var userAgent: String? {
        headers.last { $0.name.lowercased() == "user-agent" }?.value
    }
}

/// AWS Signature Version 4, computed by libcurl (`CURLOPT_AWS_SIGV4`): never by hand. Its description names the
/// provider and region only, never the keys.
package struct CurlSigning: Sendable, CustomStringConvertible {
    /// libcurl's provider string, `aws:amz:REGION:SERVICE`.
    package var provider: String
    /// The access key ID (libcurl's user name).
    package var accessKeyID: String
    /// The secret access key (libcurl's password).
    package var secretAccessKey: String

    /// Signing for `service` in `region` with these keys.
    package init(region: String, service: String, accessKeyID: String, secretAccessKey: String) {
        provider = "aws:amz:\(region):\(service)"
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    package var description: String { "SigV4(\(provider))" }
}
