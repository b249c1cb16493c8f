import Foundation
import ImagoCore
import ImagoCurl

/// Where an S3-compatible store is and how to sign for it, with the HTTP transport's limits and deadlines: the
/// settings of the `s3` transport and of the `s3` data cache.
///
/// The endpoint is the operator's, so it is trusted: the loader's private-address check, which guards sources,
/// does not apply to it. Keys never appear in descriptions, errors or `settings`.
public struct S3Configuration: Sendable, CustomStringConvertible {
    /// `https://s3.REGION.amazonaws.com` by default; any S3-compatible store's URL (MinIO, Ceph, R2, moto).
    public var endpoint: String?
    /// The signing region; `nil` reads `AWS_REGION`, then `AWS_DEFAULT_REGION`, then uses `us-east-1`.
    public var region: String?
    /// Whether the bucket goes in the path (`endpoint/bucket/key`, what most S3-compatible stores want) rather
    /// than the host name (`bucket.endpoint/key`, AWS's default).
    public var pathStyle: Bool
    /// The access key ID; `nil` reads `AWS_ACCESS_KEY_ID`. Without keys, requests go unsigned (public buckets).
    public var accessKeyId: String?
    /// The secret access key; `nil` reads `AWS_SECRET_ACCESS_KEY`.
    public var secretAccessKey: String?
    /// A session token of temporary credentials; `nil` reads `AWS_SESSION_TOKEN` (sent as `x-amz-security-token`).
    public var sessionToken: String?
    /// The connections' limits and deadlines, proxy and CA file: the curl transport's settings, of which
    /// `maxRedirects` is always 0 (a signed request is never re-sent elsewhere) and `headers` and
    /// `connectionFilter` are unused (the endpoint is the operator's).
    public var connection: CurlConfiguration

    /// The settings a configuration file may give besides the S3 ones (the HTTP transport's limits).
    static let connectionKeys: [CurlConfiguration.Key] = [
        .idleTimeout, .totalDeadline, .maxBytes, .maxConnectionsPerHost, .userAgent, .proxy, .caFile,
    ]

    /// The defaults: AWS's regional endpoint, virtual-hosted buckets, keys from the environment, and the curl
    /// transport's defaults for connections (30 s idle, 120 s in all, 50 MB, 6 connections).
    public init(
        endpoint: String? = nil, region: String? = nil, pathStyle: Bool = false, accessKeyId: String? = nil,
        secretAccessKey: String? = nil, sessionToken: String? = nil, connection: CurlConfiguration = CurlConfiguration()
    ) {
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.connection = connection
    }

    /// Reads the settings of a configuration file; absent keys keep their defaults.
    public init(reading reader: ConfigReader) throws {
        self.init(
            endpoint: try reader.string("endpoint"), region: try reader.string("region"),
            pathStyle: try reader.bool("pathStyle", default: false), accessKeyId: try reader.string("accessKeyId"),
            secretAccessKey: try reader.string("secretAccessKey"), sessionToken: try reader.string("sessionToken"),
            connection: try CurlConfiguration(reading: reader, keys: Self.connectionKeys))
        if let endpoint {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else { throw ConfigReader.error(reader.path(of: "endpoint"), "not an http(s) URL with a host") }
        }
        if region?.isEmpty == true { throw ConfigReader.error(reader.path(of: "region"), "empty region") }
    }

    /// Every setting as a configuration file spells it; the secret key and session token are shown only as
    /// `"(set)"`.
    public var settings: JSONValue {
        .object(
            connection.fileSettings(Self.connectionKeys).merging([
                "endpoint": endpoint.map { .string($0) } ?? .null,
                "region": region.map { .string($0) } ?? .null,
                "pathStyle": .bool(pathStyle),
                "accessKeyId": accessKeyId.map { .string($0) } ?? .null,
                "secretAccessKey": secretAccessKey.map { _ in .string("(set)") } ?? .null,
                "sessionToken": sessionToken.map { _ in .string("(set)") } ?? .null,
            ]) { _, own in own })
    }

    /// The endpoint, region and addressing style; never the keys.
    public var description: String {
        "S3Configuration(endpoint: \(endpoint ?? "AWS"), region: \(region ?? "from the environment"), "
            + "pathStyle: \(pathStyle))"
    }

    /// What the libcurl engine is given: no redirect is followed (a signed request is never re-sent elsewhere), no
    /// header or filter of the curl transport's applies.
    var engineConfiguration: CurlConfiguration {
        var engine = connection
        engine.maxRedirects = 0
        engine.headers = [:]
        engine.connectionFilter = nil
        return engine
    }
}
