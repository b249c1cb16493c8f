import Foundation
import ImagoCore
import ImagoCurl

/// Fetches `http` and `https` sources over libcurl, streaming the body as it arrives: the default HTTP(S)
/// transport on Linux.
///
/// One libcurl multi handle per transport, driven by a thread of its own that sleeps in `curl_multi_poll` while
/// it waits (FoundationNetworking's URLSession spins a core meanwhile). Connections are reused, HTTP/2 is used
/// where a TLS server offers it, certificates are checked against the system's CA store, and at most
/// `maxConnectionsPerHost` connections go to one host. The transport enforces its own deadlines (idle and total,
/// fractional seconds allowed), a size cap, and a redirect limit; it never follows a redirect to another scheme
/// and drops `Authorization` and `Cookie` when a redirect changes host. A consumer that stops reading pauses the
/// transfer once 1 MiB waits for it. A status other than 2xx fails with the status (and the server's
/// `Retry-After`), except 304, which is delivered as metadata so a cache can revalidate. No proxy is used unless
/// the configuration names one; the proxy environment variables are ignored.
public final class CurlTransport: ImageTransport {
    /// Settings of a libcurl transport: limits, deadlines, a proxy, a CA file and a connection filter.
    public typealias Configuration = CurlConfiguration

    /// The settings this transport was made with.
    public let configuration: Configuration
    /// Answers are kept by the HTTP caching rules (RFC 9111, private cache).
    public var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }
    /// The multi handle and its thread (internal: the tests watch it end).
    let multi: CurlMulti

    /// Creates a transport with its own multi handle and thread.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.multi = CurlMulti(configuration: configuration)
    }

    /// Creates a transport whose `connectionFilter` is `filter`.
    public convenience init(
        configuration: Configuration = Configuration(),
        connectionFilter filter: @escaping @Sendable (ConnectionAddress) -> Bool
    ) {
        var configuration = configuration
        configuration.connectionFilter = filter
        self.init(configuration: configuration)
    }

    deinit {
        // Fetches still running keep going; the thread ends after the last one.
        multi.shutDownWhenIdle()
    }

    /// `http` and `https`.
    public var schemes: Set<String> { ["http", "https"] }

    /// Starts fetching `request.url`; the fetch stops when the stream's consumer stops or is cancelled.
    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let curlRequest: CurlRequest
        do {
            curlRequest = try CurlRequest(request, configuration: configuration)
        } catch {
            let source = request.url.absoluteString
            return AsyncThrowingStream { $0.finish(throwing: ImagoError.wrapping(error, source: source)) }
        }
        // The stream owns the consumer's end: when it is released, the fetch is cancelled.
        return multi.stream(curlRequest)
    }
}
