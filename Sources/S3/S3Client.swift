import Foundation
import ImagoCore
import ImagoCurl

/// Requests to one S3-compatible store over the libcurl engine: the URL of an object (path or virtual-hosted
/// style), signed by libcurl with SigV4, with the headers libcurl 7.88 does not add itself. The transport and the
/// data cache each own one (with its own multi handle and thread).
final class S3Client: Sendable {
    /// The endpoint requests go to (`https://s3.us-east-1.amazonaws.com`, `http://127.0.0.1:9000`).
    let endpoint: URL
    let pathStyle: Bool
    let region: String
    let settings: CurlConfiguration
    private let signing: CurlSigning?
    private let sessionToken: String?
    private let multi: CurlMulti

    /// A client for `configuration`, its unset region and keys taken from `environment` (`AWS_REGION`,
    /// `AWS_DEFAULT_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`).
    init(configuration: S3Configuration, environment: [String: String]) throws(ImagoError) {
        func nonEmpty(_ value: String?) -> String? { value?.isEmpty == false ? value : nil }
        let region =
            nonEmpty(configuration.region) ?? nonEmpty(environment["AWS_REGION"])
            ?? nonEmpty(environment["AWS_DEFAULT_REGION"]) ?? "us-east-1"
        let endpointText = configuration.endpoint ?? "https://s3.\(region).amazonaws.com"
        guard let endpoint = URL(string: endpointText), endpoint.host?.isEmpty == false else {
            throw ImagoError(.invalidSource, "invalid S3 endpoint \(endpointText.debugDescription)")
        }
        self.endpoint = endpoint
        self.region = region
        pathStyle = configuration.pathStyle
        let accessKey = nonEmpty(configuration.accessKeyId) ?? nonEmpty(environment["AWS_ACCESS_KEY_ID"])
        let secret = nonEmpty(configuration.secretAccessKey) ?? nonEmpty(environment["AWS_SECRET_ACCESS_KEY"])
        signing = accessKey.flatMap { accessKey in
            secret.map {
                CurlSigning(region: region, service: "s3", accessKeyID: accessKey, secretAccessKey: $0)
            }
        }
        sessionToken = nonEmpty(configuration.sessionToken) ?? nonEmpty(environment["AWS_SESSION_TOKEN"])
        settings = configuration.engineConfiguration
        multi = CurlMulti(configuration: settings)
    }

    deinit { multi.shutDownWhenIdle() }

    /// Whether requests are signed (keys were configured or found in the environment).
    var signsRequests: Bool { signing != nil }

    /// The URL of `location`'s object, or of its bucket when `key` is nil; `query` is appended as it is (its
    /// values encoded by the caller, its names in order, as SigV4's canonical query wants).
    func url(bucket: String, encodedKey: String?, query: String? = nil) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = components.percentEncodedPath
        let base = path.hasSuffix("/") ? path : path + "/"
        if pathStyle {
            components.percentEncodedPath = base + bucket + "/" + (encodedKey ?? "")
        } else {
            components.host = bucket + "." + (components.host ?? "")
            components.percentEncodedPath = base + (encodedKey ?? "")
        }
        components.percentEncodedQuery = query
        return components.url ?? endpoint
    }

    /// A request for `url`: the configured `User-Agent`, `headers`, then the payload hash (`UNSIGNED-PAYLOAD`:
    /// libcurl 7.88 signs without adding it, and S3 refuses a signed request without it) and the session token.
    /// The endpoint is trusted: the loader's address policy is not applied to it, its deadline and byte cap are.
    func request(
        _ method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, limits: FetchLimits,
        source: String
    ) throws -> CurlRequest {
        var lines = CurlRequest.mergedHeaders(configuration: settings, headers)
        if signing != nil { CurlRequest.set("x-amz-content-sha256", "UNSIGNED-PAYLOAD", in: &lines) }
        if let sessionToken { CurlRequest.set("x-amz-security-token", sessionToken, in: &lines) }
        var request = try CurlRequest(
            url: url, headers: lines, limits: FetchLimits(maxBytes: limits.maxBytes, deadline: limits.deadline),
            source: source)
        request.method = method
        request.body = body
        request.signing = signing
        return request
    }

    /// The events of `request` (see `ImageTransport.fetch`).
    func stream(_ request: CurlRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        multi.stream(request)
    }

    /// Sends `request` and collects its answer: the response's metadata and its whole body. A status other than
    /// 2xx (or 304) throws `transportFailed(status:)`.
    func send(_ request: CurlRequest) async throws -> (metadata: TransportMetadata, body: Data) {
        var metadata: TransportMetadata?
        var body = Data()
        for try await event in stream(request) {
            switch event {
            case .response(let head): metadata = head
            case .bytes(let bytes): body.append(bytes)
            }
        }
        guard let metadata else {
            throw ImagoError(.connectionFailed, "the store sent no response", source: request.source)
        }
        return (metadata, body)
    }
}
