import ImagoCore

/// Settings of a libcurl transport, `CurlTransport.Configuration`: the URLSession transport's settings (the same
/// names in a configuration file, so a configuration written for one works for the other), a proxy, a CA file, and
/// a connection filter. The S3 transport and cache take the same settings for their connections.
public struct CurlConfiguration: Sendable {
    /// Longest wait for the connection, the response head, or the next bytes of the body; time the transfer spends
    /// paused because the consumer stopped reading does not count.
    public var idleTimeout: Double
    /// Longest time a whole fetch may take, redirects included.
    public var totalDeadline: Double
    /// Largest body accepted, in bytes: a larger `Content-Length` is refused before the body, and a body that grows
    /// past it is cut off.
    public var maxBytes: Int
    /// Most redirects followed before the fetch fails (0: none is followed).
    public var maxRedirects: Int
    /// Sent with every request (as `User-Agent`) unless a request header overrides it.
    public var userAgent: String
    /// Headers sent with every request; a request's own headers take precedence.
    public var headers: [String: String]
    /// Most simultaneous connections to one host (HTTP/2 streams share one connection).
    public var maxConnectionsPerHost: Int
    /// The proxy to use (`http://proxy.example:3128`, `socks5h://…`); `nil`, the default, means none: the
    /// `http_proxy`/`https_proxy`/`all_proxy` environment variables libcurl would read are ignored.
    public var proxy: String?
    /// A PEM file of the certificate authorities to trust instead of the system's store (`nil`, the default: the
    /// system's, `/etc/ssl/certs` on Debian).
    public var caFile: String?
    /// Sees every address before a connection to it is opened, redirects included; `false` refuses it, and a fetch
    /// whose every address is refused fails with `addressRefused` before sending anything. It runs on the
    /// transport's thread, between transfers: keep it quick (no I/O).
    public var connectionFilter: (@Sendable (ConnectionAddress) -> Bool)?

    /// The defaults: 30 s idle, 120 s in all, 50 MB, 10 redirects, `Imago/0.1`, 6 connections per host, no proxy,
    /// the system's CA store, no filter.
    public init(
        idleTimeout: Double = 30, totalDeadline: Double = 120, maxBytes: Int = 50 * 1024 * 1024,
        maxRedirects: Int = 10, userAgent: String = "Imago/0.1", headers: [String: String] = [:],
        maxConnectionsPerHost: Int = 6, proxy: String? = nil, caFile: String? = nil,
        connectionFilter: (@Sendable (ConnectionAddress) -> Bool)? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.totalDeadline = totalDeadline
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.userAgent = userAgent
        self.headers = headers
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.proxy = proxy
        self.caFile = caFile
        self.connectionFilter = connectionFilter
    }

    /// A setting's name in a configuration file.
    package enum Key: String, CaseIterable, Sendable {
        case idleTimeout, totalDeadline, maxBytes, maxRedirects, userAgent, headers, maxConnectionsPerHost, proxy
        case caFile

        /// The settings every HTTP transport shares (libcurl's own, `proxy` and `caFile`, excepted).
        package static let common: [Key] = [
            .idleTimeout, .totalDeadline, .maxBytes, .maxRedirects, .userAgent, .headers, .maxConnectionsPerHost,
        ]
    }

    /// Reads the settings of a configuration file; absent keys keep their defaults. A filter cannot be written in a
    /// file: set `connectionFilter` in code.
    public init(reading reader: ConfigReader) throws {
        try self.init(reading: reader, keys: Key.allCases)
    }

    /// Every setting with its value, as a configuration file spells it.
    public var settings: JSONValue { .object(fileSettings()) }

    /// Reads `keys` from a configuration file; absent keys (and those not in `keys`) keep their defaults.
    package init(reading reader: ConfigReader, keys: [Key]) throws {
        self.init()
        for key in keys {
            let name = key.rawValue
            switch key {
            case .idleTimeout: idleTimeout = try reader.double(name, default: idleTimeout, in: 0.001...86_400)
            case .totalDeadline: totalDeadline = try reader.double(name, default: totalDeadline, in: 0.001...86_400)
            case .maxBytes: maxBytes = try reader.int(name, default: maxBytes, in: 1...Int.max)
            case .maxRedirects: maxRedirects = try reader.int(name, default: maxRedirects, in: 0...100)
            case .userAgent: userAgent = try reader.string(name) ?? userAgent
            case .headers: headers = try reader.stringMap(name)
            case .maxConnectionsPerHost:
                maxConnectionsPerHost = try reader.int(name, default: maxConnectionsPerHost, in: 1...1024)
            case .proxy:
                proxy = try reader.string(name)
                if proxy?.isEmpty == true { throw ConfigReader.error(reader.path(of: name), "empty proxy") }
            case .caFile:
                caFile = try reader.string(name)
                if caFile?.isEmpty == true { throw ConfigReader.error(reader.path(of: name), "empty path") }
            }
        }
    }

    /// `keys` with their values, as a configuration file spells them.
    package func fileSettings(_ keys: [Key] = Key.allCases) -> [String: JSONValue] {
        var settings: [String: JSONValue] = [:]
        for key in keys {
            settings[key.rawValue] =
                switch key {
                case .idleTimeout: .number(idleTimeout)
                case .totalDeadline: .number(totalDeadline)
                case .maxBytes: .number(Double(maxBytes))
                case .maxRedirects: .number(Double(maxRedirects))
                case .userAgent: .string(userAgent)
                case .headers: .object(headers.mapValues { .string($0) })
                case .maxConnectionsPerHost: .number(Double(maxConnectionsPerHost))
                case .proxy: proxy.map { .string($0) } ?? .null
                case .caFile: caFile.map { .string($0) } ?? .null
                }
        }
        return settings
    }
}
