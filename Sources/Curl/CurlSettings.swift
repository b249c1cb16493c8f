import ImagoCore

/// What the libcurl engine needs to know of its transport's settings: limits, deadlines, the proxy and CA file,
/// and the connection filter. `CurlTransport` and the S3 transport each make one from their own configuration.
package struct CurlSettings: Sendable {
    /// Longest wait for the connection, the response head, or the next bytes of the body (paused time excluded).
    package var idleTimeout: Double
    /// Longest time a whole fetch may take, redirects included.
    package var totalDeadline: Double
    /// Largest body accepted, in bytes: a larger `Content-Length` is refused before the body.
    package var maxBytes: Int
    /// Most redirects followed before the fetch fails (0: none is followed).
    package var maxRedirects: Int
    /// Sent as `User-Agent` unless a request header overrides it.
    package var userAgent: String
    /// Headers sent with every request; a request's own take precedence.
    package var headers: [String: String]
    /// Most simultaneous connections to one host.
    package var maxConnectionsPerHost: Int
    /// The proxy to use; `nil` means none (the proxy environment variables are ignored).
    package var proxy: String?
    /// A PEM file of certificate authorities to trust instead of the system's store.
    package var caFile: String?
    /// Sees every address before a connection to it is opened.
    package var connectionFilter: (@Sendable (ConnectionAddress) -> Bool)?

    /// The defaults: 30 s idle, 120 s in all, 50 MB, 10 redirects, `Imago/0.1`, 6 connections per host, no proxy.
    package init(
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

    /// Reads `keys` from a configuration file; absent keys (and those not in `keys`) keep their defaults.
    package init(reading reader: ConfigReader, keys: [Key] = Key.allCases) throws {
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
