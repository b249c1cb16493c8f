import ImagoCore
import ImagoCurl

extension CurlTransport {
    /// Settings of a libcurl transport: the URLSession transport's settings (the same names in a configuration
    /// file, so a configuration written for one works for the other), a proxy, a CA file, and a connection filter.
    public struct Configuration: Sendable {
        /// Longest wait for the connection, the response head, or the next bytes of the body; time the transfer
        /// spends paused because the consumer stopped reading does not count.
        public var idleTimeout: Double
        /// Longest time a whole fetch may take, redirects included.
        public var totalDeadline: Double
        /// Largest body accepted, in bytes: a larger `Content-Length` is refused before the body, and a body that
        /// grows past it is cut off.
        public var maxBytes: Int
        /// Most redirects followed before the fetch fails.
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
        /// A PEM file of the certificate authorities to trust instead of the system's store (`nil`, the default:
        /// the system's, `/etc/ssl/certs` on Debian).
        public var caFile: String?
        /// Sees every address before a connection to it is opened, redirects included; `false` refuses it, and a
        /// fetch whose every address is refused fails with `addressRefused` before sending anything. It runs on the
        /// transport's thread, between transfers: keep it quick (no I/O).
        public var connectionFilter: (@Sendable (ConnectionAddress) -> Bool)?

        /// The defaults: 30 s idle, 120 s in all, 50 MB, 10 redirects, `Imago/0.1`, 6 connections per host, no
        /// proxy, the system's CA store, no filter.
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

        /// Reads the settings of a configuration file; absent keys keep their defaults. A filter cannot be
        /// written in a file: set `connectionFilter` in code.
        public init(reading reader: ConfigReader) throws {
            self.init(try CurlSettings(reading: reader))
        }

        init(_ settings: CurlSettings) {
            self.init(
                idleTimeout: settings.idleTimeout, totalDeadline: settings.totalDeadline, maxBytes: settings.maxBytes,
                maxRedirects: settings.maxRedirects, userAgent: settings.userAgent, headers: settings.headers,
                maxConnectionsPerHost: settings.maxConnectionsPerHost, proxy: settings.proxy, caFile: settings.caFile,
                connectionFilter: settings.connectionFilter)
        }

        /// What the libcurl engine is given.
        var engineSettings: CurlSettings {
            CurlSettings(
                idleTimeout: idleTimeout, totalDeadline: totalDeadline, maxBytes: maxBytes, maxRedirects: maxRedirects,
                userAgent: userAgent, headers: headers, maxConnectionsPerHost: maxConnectionsPerHost, proxy: proxy,
                caFile: caFile, connectionFilter: connectionFilter)
        }

        /// Every setting with its value, as a configuration file spells it.
        public var settings: JSONValue { .object(engineSettings.fileSettings()) }
    }
}
