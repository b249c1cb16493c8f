/// An address the transport is about to connect to.
///
/// `CurlTransport` shows every address to its `connectionFilter` before it opens a connection to it, redirects
/// included; with a proxy configured, the address is the proxy's.
public struct ConnectionAddress: Sendable, Hashable {
    /// The URL's host as requested (for redirects: the redirect's host).
    public var host: String
    /// The numeric address (`"127.0.0.1"`, `"::1"`).
    public var ip: String
    /// The port.
    public var port: Int
    /// Whether `ip` is an IPv6 address.
    public var isIPv6: Bool

    /// Creates an address.
    public init(host: String, ip: String, port: Int, isIPv6: Bool) {
        self.host = host
        self.ip = ip
        self.port = port
        self.isIPv6 = isIPv6
    }
}
