import Foundation
import ImagoCore
import ImagoCurl

/// Fetches `s3://BUCKET/KEY` sources from S3 or an S3-compatible store (MinIO, Ceph, R2) over libcurl, which
/// signs each request (AWS Signature Version 4); the body streams as it arrives, as with `CurlTransport`.
///
/// The key is percent-decoded from the URL and encoded again as S3 expects; a bad bucket name, an empty key or a
/// `..` segment is refused with `invalidSource` before any connection. The store's answers map as HTTP's do: 404
/// and 403 fail with `transportFailed(status:)`, a `Content-Length` over `maxBytes` is refused before the body,
/// and `ETag`/`Last-Modified` let a cache revalidate (a 304 is delivered as metadata). Redirects are not followed.
/// Keys come from the configuration or the `AWS_*` environment variables and never appear in errors or
/// descriptions.
public final class S3Transport: ImageTransport, CustomStringConvertible {
    /// The settings this transport was made with.
    public let configuration: S3Configuration
    /// Answers are kept by the HTTP caching rules (RFC 9111, private cache).
    public var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }
    let client: S3Client

    /// A transport for the configured store; unset region and keys are read from `environment`. Throws
    /// `invalidSource` for an endpoint that is not a URL with a host.
    public init(
        configuration: S3Configuration = S3Configuration(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        self.configuration = configuration
        client = try S3Client(configuration: configuration, environment: environment)
    }

    /// `s3`.
    public var schemes: Set<String> { ["s3"] }

    /// The endpoint and region; never the keys.
    public var description: String {
        "S3Transport(endpoint: \(client.endpoint.absoluteString), region: \(client.region), "
            + "signed: \(client.signsRequests))"
    }

    /// Starts fetching the object `request.url` names; the fetch stops when the stream's consumer stops or is
    /// cancelled.
    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let source = request.url.absoluteString
        let curlRequest: CurlRequest
        do {
            let location = try S3Location(url: request.url)
            var headers = request.headers
            if let etag = request.ifNoneMatch { headers["If-None-Match"] = etag }
            if let date = request.ifModifiedSince { headers["If-Modified-Since"] = date }
            var object = try client.request(
                "GET", url: client.url(bucket: location.bucket, encodedKey: location.encodedKey), headers: headers,
                limits: request.limits, source: source)
            object.sourceURL = request.url
            curlRequest = object
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: ImagoError.wrapping(error, source: source)) }
        }
        return client.stream(curlRequest)
    }
}
