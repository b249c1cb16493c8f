import ImagoCore
import ImagoCurl

extension HTTPTransport {
    /// Settings of an HTTP transport. Times are in seconds and may be fractional: the transport enforces them
    /// itself, because URLSession on Linux truncates its timeouts to whole seconds.
    public struct Configuration: Sendable, Hashable {
        /// Longest wait for the connection, the response head, or the next bytes of the body.
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
        /// Most simultaneous connections to one host.
        public var maxConnectionsPerHost: Int

        /// The defaults: 30 s idle, 120 s in all, 50 MB, 10 redirects, `Imago/0.1`, 6 connections per host.
        public init(
            idleTimeout: Double = 30, totalDeadline: Double = 120, maxBytes: Int = 50 * 1024 * 1024,
            maxRedirects: Int = 10, userAgent: String = "Imago/0.1", headers: [String: String] = [:],
            maxConnectionsPerHost: Int = 6
        ) {
            self.idleTimeout = idleTimeout
            self.totalDeadline = totalDeadline
            self.maxBytes = maxBytes
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
            self.headers = headers
            self.maxConnectionsPerHost = maxConnectionsPerHost
        }

        /// Reads the settings of a configuration file; absent keys keep their defaults.
        public init(reading reader: ConfigReader) throws {
            let common = try CurlConfiguration(reading: reader, keys: CurlConfiguration.Key.common)
            self.init(
                idleTimeout: common.idleTimeout, totalDeadline: common.totalDeadline, maxBytes: common.maxBytes,
                maxRedirects: common.maxRedirects, userAgent: common.userAgent, headers: common.headers,
                maxConnectionsPerHost: common.maxConnectionsPerHost)
        }

        /// Every setting with its value, as a configuration file spells it.
        public var settings: JSONValue {
            .object(
                CurlConfiguration(
                    idleTimeout: idleTimeout, totalDeadline: totalDeadline, maxBytes: maxBytes,
                    maxRedirects: maxRedirects, userAgent: userAgent, headers: headers,
                    maxConnectionsPerHost: maxConnectionsPerHost
                ).fileSettings(CurlConfiguration.Key.common))
        }
    }
}
