import Foundation
import ImagoCore
import ImagoCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches `http` and `https` sources over URLSession, streaming the body as it arrives.
///
/// The transport enforces its own deadlines (idle and total, fractional seconds allowed), a size cap, and a
/// redirect limit; it never follows a redirect to another scheme. A status other than 2xx fails with the status
/// (and the server's `Retry-After`), except 304, which is delivered as metadata so a cache can revalidate.
public final class HTTPTransport: ImageTransport {
    /// The settings this transport was made with.
    public let configuration: Configuration
    /// Answers are kept by the HTTP caching rules (RFC 9111, private cache).
    public var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }
    private let session: URLSession
    private let router: HTTPSessionDelegate
    private let callbackQueue: OperationQueue
    private let callbackDispatchQueue: DispatchQueue

    /// Creates a transport with its own URLSession.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let router = HTTPSessionDelegate()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // Caching, cookies and timeouts are the project's business: URLSession's own are off or out of the way.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConnectionsPerHost
        sessionConfiguration.timeoutIntervalForRequest = Self.urlSessionTimeout(for: configuration)
        sessionConfiguration.timeoutIntervalForResource = Self.urlSessionTimeout(for: configuration)
        let queue = OperationQueue()
        // One serial queue keeps each task's callbacks in order, so chunks are yielded in the order they came.
        queue.maxConcurrentOperationCount = 1
        queue.name = "Imago.HTTPTransport"
        // On a private serial dispatch queue, which gets a thread of its own when it has work: left to the global
        // queues (the cooperative pool's threads on Linux), the callbacks waited whenever the pool was busy, and a
        // trickling response hit the idle timeout although its bytes had come.
        // (The operation queue does not keep its underlying queue: the transport does.)
        let callbacks = DispatchQueue(label: "Imago.HTTPTransport.callbacks")
        queue.underlyingQueue = callbacks
        self.callbackDispatchQueue = callbacks
        self.session = URLSession(configuration: sessionConfiguration, delegate: router, delegateQueue: queue)
        self.router = router
        self.callbackQueue = queue
    }

    deinit {
        // Fetches still running keep going; the session lets go of its delegate when they end.
        session.finishTasksAndInvalidate()
    }

    /// `http` and `https`.
    public var schemes: Set<String> { ["http", "https"] }

    /// Starts fetching `request.url`; the fetch stops when the stream's consumer stops or is cancelled.
    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let source = request.url.absoluteString
        let urlRequest: URLRequest
        do {
            urlRequest = try makeURLRequest(for: request)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: ImagoError.wrapping(error, source: source)) }
        }
        // The loader's limits narrow the transport's own.
        var configuration = configuration
        configuration.maxBytes = min(configuration.maxBytes, request.limits.maxBytes)
        if let left = request.limits.secondsLeft() {
            configuration.totalDeadline = min(configuration.totalDeadline, left)
        }
        let load = HTTPLoad(
            source: source, configuration: configuration, limits: request.limits, callbackQueue: callbackQueue)
        let task = session.dataTask(with: urlRequest)
        router.register(load, for: task)
        if request.limits.policy == nil {
            load.start(task)
        } else {
            // Resolving is blocking I/O: on the callback queue, never the cooperative pool.
            callbackDispatchQueue.async {
                do {
                    try HostAddressCheck.check(urlRequest.url ?? request.url, limits: request.limits, source: source)
                    load.start(task)
                } catch {
                    load.refuse(task, ImagoError.wrapping(error, source: source))
                }
            }
        }
        // The stream owns the consumer's end: when it is released, the fetch is cancelled.
        let consumer = HTTPStreamConsumer(load.events)
        return AsyncThrowingStream(unfolding: { try await consumer.next() })
    }

    /// The request URLSession sends: validated URL, configured and per-request headers, conditional headers.
    func makeURLRequest(for request: TransportRequest) throws -> URLRequest {
        let url = try HTTPRequestValidation.validatedURL(request.url)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "GET"
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = Self.urlSessionTimeout(for: configuration)
        var headers = ["User-Agent": configuration.userAgent]
        for (name, value) in configuration.headers { headers[name] = value }
        for (name, value) in request.headers { headers[name] = value }
        if let etag = request.ifNoneMatch { headers["If-None-Match"] = etag }
        if let date = request.ifModifiedSince { headers["If-Modified-Since"] = date }
        for (name, value) in headers {
            try HTTPRequestValidation.validateHeader(name: name, value: value, source: url.absoluteString)
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    /// URLSession's own timeout sits past ours (it would truncate 0.5 s to 0 and fail at once), as a backstop.
    private static func urlSessionTimeout(for configuration: Configuration) -> TimeInterval {
        (max(configuration.idleTimeout, configuration.totalDeadline) + 5).rounded(.up)
    }
}
