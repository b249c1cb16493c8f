import CCurl
import Foundation
import ImagoCore

/// One fetch on the loop's thread: its easy handle, what it has received, and its deadlines.
///
/// Only the loop's thread touches it: the loop itself and libcurl's callbacks, which run inside
/// `curl_multi_perform`. The consumer reaches it through commands (cancel, resume).
final class CurlTransfer {
    enum Phase {
        /// Connecting, or reading a response head.
        case awaitingHead
        /// The `.response` event went out; body bytes follow.
        case streaming
        /// A redirect's head was read; its body is skipped and the target fetched when it ends.
        case redirecting(URL)
        /// The stream has ended (a 304, a failure); whatever else libcurl reads is dropped.
        case finished
    }

    /// Queued bytes above which the transfer pauses until the consumer catches up.
    static let bufferLimit = 1 << 20
    /// A redirect body longer than this is not read to its end: the connection is dropped instead.
    static let skippedBodyLimit: Int64 = 64 * 1024

    let id: UInt64
    let events: HTTPEventQueue
    let configuration: CurlConfiguration
    private(set) var request: CurlRequest
    private(set) var handle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?

    let startedAt: ContinuousClock.Instant
    var lastActivity: ContinuousClock.Instant
    var phase = Phase.awaitingHead
    var fields: [String: String] = [:]
    var received: Int64 = 0
    var expected: Int64?
    var skipped: Int64 = 0
    var redirects = 0
    /// Paused by back-pressure: the idle timeout does not run meanwhile.
    var isPaused = false
    /// libcurl decodes the body (a `Content-Encoding`): such a transfer is not paused.
    var decodesContent = false
    /// The last address the connection filter refused, for the error if no other address worked.
    var refusedAddress: ConnectionAddress?
    /// libcurl's own words on a failure (`CURLOPT_ERRORBUFFER`): the result code alone cannot tell a server's
    /// malformed chunked encoding from a connection reset.
    private let errorBuffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        return buffer
    }()

    init(
        id: UInt64, request: CurlRequest, events: HTTPEventQueue, configuration: CurlConfiguration,
        startedAt: ContinuousClock.Instant
    ) {
        self.id = id
        self.request = request
        self.events = events
        self.configuration = configuration
        self.startedAt = startedAt
        self.lastActivity = startedAt
    }

    deinit {
        // The handle is normally cleaned up already; if not, libcurl must not write into the freed buffer.
        if let handle { imago_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil) }
        errorBuffer.deallocate()
    }

    var source: String { request.source }
    /// The byte cap: the transport's, or the loader's if lower.
    var maxBytes: Int { min(configuration.maxBytes, request.limits.maxBytes) }
    /// When the whole fetch must end: the transport's total deadline, or the loader's if sooner.
    var totalDeadline: ContinuousClock.Instant {
        let own = startedAt.advanced(by: .seconds(configuration.totalDeadline))
        return request.limits.deadline.map { min(own, $0) } ?? own
    }

    /// What libcurl said about the last failure ("" when nothing).
    var failureDetail: String { String(cString: errorBuffer) }

    // MARK: Handle

    /// Creates the easy handle and adds it to `multi`; on failure the stream ends with the error.
    func start(in multi: UnsafeMutableRawPointer) -> Bool {
        guard let handle = curl_easy_init() else {
            fail(.transportFailed(status: nil), "libcurl could not allocate a transfer")
            return false
        }
        self.handle = handle
        configureOptions(of: handle)
        return addRequest(to: multi)
    }

    /// Fetches a redirect's target on the same handle; returns false (having ended the stream) if that fails.
    func restart(in multi: UnsafeMutableRawPointer) -> Bool {
        guard case .redirecting(let target) = phase else { return false }
        request = request.redirected(to: target)
        phase = .awaitingHead
        fields = [:]
        (received, expected, skipped, decodesContent) = (0, nil, 0, false)
        refusedAddress = nil
        return addRequest(to: multi)
    }

    private func addRequest(to multi: UnsafeMutableRawPointer) -> Bool {
        guard let handle else { return false }
        curl_slist_free_all(headerList)
        headerList = nil
        for line in request.headerLines {
            guard let list = curl_slist_append(headerList, line) else {
                fail(.transportFailed(status: nil), "libcurl could not allocate the request headers")
                return false
            }
            headerList = list
        }
        imago_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
        if let userAgent = request.userAgent {
            userAgent.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_USERAGENT, $0) }
        } else {
            imago_curl_easy_setopt_pointer(handle, CURLOPT_USERAGENT, nil)
        }
        let setURL = request.url.absoluteString.withCString { imago_curl_easy_setopt_pointer(handle, CURLOPT_URL, $0) }
        guard setURL == CURLE_OK else {
            finish(throwing: ImagoError(.invalidSource, "invalid source: libcurl refused the URL", source: source))
            return false
        }
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else {
            fail(.transportFailed(status: nil), "libcurl refused the transfer")
            return false
        }
        return true
    }

    private func configureOptions(of handle: UnsafeMutableRawPointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        imago_curl_easy_setopt_pointer(handle, CURLOPT_PRIVATE, UnsafeRawPointer(bitPattern: UInt(id)))
        imago_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        imago_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)  // no SIGALRM around DNS: we are threaded
        imago_curl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)  // redirects are followed here, checked
        "http,https".withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, $0) }
        imago_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        imago_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        imago_curl_easy_setopt_long(handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        imago_curl_easy_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        "".withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, $0) }
        // An empty proxy turns off libcurl's reading of http_proxy and friends: only a configured proxy is used.
        (configuration.proxy ?? "").withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_PROXY, $0) }
        if let caFile = configuration.caFile {
            caFile.withCString { _ = imago_curl_easy_setopt_pointer(handle, CURLOPT_CAINFO, $0) }
        }
        imago_curl_easy_setopt_write(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback)
        imago_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        imago_curl_easy_setopt_write(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        imago_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        imago_curl_easy_setopt_opensocket(handle, curlOpenSocketCallback)
        imago_curl_easy_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, context)
        configureMethodAndSigning(of: handle)
    }

    /// Releases the handle (removing it from `multi` first when it is still in it).
    func cleanUp(in multi: UnsafeMutableRawPointer?) {
        if let handle {
            if let multi { curl_multi_remove_handle(multi, handle) }
            curl_easy_cleanup(handle)
        }
        handle = nil
        curl_slist_free_all(headerList)
        headerList = nil
    }

    /// The consumer caught up: unpause (libcurl may deliver what it held back right away).
    func resume(now: ContinuousClock.Instant) {
        guard isPaused, let handle else { return }
        isPaused = false
        lastActivity = now
        imago_curl_unpause(handle)
    }

    // MARK: Finishing

    /// Ends the stream once (with `error`, if any); what libcurl reads afterwards is dropped.
    func finish(throwing error: ImagoError?) {
        if case .finished = phase { return }
        phase = .finished
        events.end(throwing: error)
    }

    func fail(_ kind: ImagoError.Kind, _ reason: String, retryAfter: Double? = nil) {
        finish(throwing: ImagoError(kind, reason, source: source, retryAfter: retryAfter))
    }

    /// libcurl is done with the current request: returns true when a redirect should be fetched next.
    func complete(_ result: CURLcode, now: ContinuousClock.Instant) -> Bool {
        switch phase {
        case .finished:
            return false
        case .redirecting:
            lastActivity = now
            return true
        case .streaming:
            if let protocolError = CurlFailure.protocolError(result, detail: failureDetail, source: source) {
                finish(throwing: protocolError)
            } else if let expected, received < expected {
                finish(throwing: CurlFailure.truncated(received: received, expected: expected, source: source))
            } else if result == CURLE_PARTIAL_FILE || (result == CURLE_RECV_ERROR && received > 0) {
                finish(throwing: CurlFailure.truncated(received: received, expected: expected, source: source))
            } else if result != CURLE_OK {
                finish(throwing: CurlFailure.error(for: result, detail: failureDetail, source: source))
            } else {
                finish(throwing: nil)
            }
        case .awaitingHead:
            if let refusedAddress, result == CURLE_COULDNT_CONNECT {
                finish(throwing: CurlFailure.refused(refusedAddress, source: source))
            } else if result == CURLE_OK {
                fail(.connectionFailed, "the server sent no response")
            } else if result == CURLE_OUT_OF_MEMORY {
                // libcurl 7.88 reports a response header line over its 100 KB limit as "out of memory".
                finish(throwing: CurlFailure.headerTooLarge(source: source))
            } else {
                finish(throwing: CurlFailure.error(for: result, detail: failureDetail, source: source))
            }
        }
        return false
    }

    // MARK: Deadlines

    /// When the next deadline falls: the total one, or the idle one unless paused; `nil` once finished.
    var nextDeadline: ContinuousClock.Instant? {
        if case .finished = phase { return nil }
        let total = totalDeadline
        guard !isPaused else { return total }
        return min(total, lastActivity.advanced(by: .seconds(configuration.idleTimeout)))
    }

    /// Fails the fetch if a deadline has passed; returns whether it did (the loop then drops the transfer).
    func enforceDeadlines(now: ContinuousClock.Instant) -> Bool {
        if case .finished = phase { return false }
        if now >= totalDeadline {
            let (whole, fraction) = startedAt.duration(to: totalDeadline).components
            let seconds = (Double(whole) + Double(fraction) / 1e18)
            fail(.timedOut, "timed out after \(Self.format((seconds * 1000).rounded() / 1000)) s (total deadline)")
            return true
        }
        if !isPaused, now >= lastActivity.advanced(by: .seconds(configuration.idleTimeout)) {
            let waiting: String
            if case .streaming = phase { waiting = "waiting for data" } else { waiting = "waiting for a response" }
            fail(.timedOut, "timed out after \(Self.format(configuration.idleTimeout)) s \(waiting)")
            return true
        }
        return false
    }

    /// `0.3`, `30`: seconds without a useless `.0`.
    static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }
}
