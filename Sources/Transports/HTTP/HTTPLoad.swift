import Foundation
import ImagoCore
import ImagoCurl
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP fetch: turns its URLSession task's callbacks into stream events, and enforces the limits.
///
/// Callbacks arrive on the session's serial queue; the watchdog and the consumer's cancellation come from other
/// threads, so everything mutable is behind a lock and finishing happens exactly once.
final class HTTPLoad: Sendable {
    let source: String
    let configuration: HTTPTransport.Configuration
    /// The loader's source policy, applied to every redirect hop.
    let limits: FetchLimits
    /// The session's delegate queue: tasks are cancelled there, never inside a callback, because FoundationNetworking
    /// crashes when a task is cancelled between a redirect callback and its completion handler.
    private let callbackQueue: OperationQueue
    /// What the consumer pulls.
    let events = HTTPEventQueue()
    private let startedAt = ContinuousClock.now
    private let state: Mutex<State>

    private struct State {
        var task: URLSessionTask?
        var watchdog: (any DispatchSourceTimer)?
        var isFinished = false
        var hasResponse = false
        var received: Int64 = 0
        var expected: Int64?
        var redirects = 0
        var lastActivity: ContinuousClock.Instant
    }

    init(
        source: String, configuration: HTTPTransport.Configuration, limits: FetchLimits = FetchLimits(),
        callbackQueue: OperationQueue
    ) {
        self.source = source
        self.configuration = configuration
        self.limits = limits
        self.callbackQueue = callbackQueue
        self.state = Mutex(State(lastActivity: startedAt))
        events.onCancel { [weak self] in self?.cancel() }
    }

    /// Starts the task and the watchdog that enforces the deadlines.
    func start(_ task: URLSessionTask) {
        let firstCheck = min(configuration.idleTimeout, configuration.totalDeadline)
        let started = state.withLock { state in
            guard !state.isFinished else { return false }
            // A dispatch timer, not a sleeping Task: the deadlines hold even while the cooperative pool is busy
            // (synchronous tests and blocking work elsewhere in the process used to hold them up for seconds).
            let watchdog = DispatchSource.makeTimerSource(queue: Self.deadlineQueue)
            watchdog.setEventHandler { [weak self] in self?.checkDeadlines() }
            watchdog.schedule(deadline: .now() + firstCheck, leeway: .milliseconds(5))
            state.task = task
            state.watchdog = watchdog
            watchdog.resume()
            return true
        }
        guard started else {
            callbackQueue.addOperation { task.cancel() }
            return
        }
        task.resume()
    }

    /// Ends the fetch with `error` before `task` was started (the source policy refused it).
    func refuse(_ task: URLSessionTask, _ error: ImagoError) {
        finish(throwing: error)
        callbackQueue.addOperation { task.cancel() }
    }

    /// The consumer stopped listening or its task was cancelled: stop at once, deliver nothing more.
    func cancel() {
        finish(throwing: nil)
    }

    // MARK: URLSession callbacks

    func receive(_ response: URLResponse) -> URLSession.ResponseDisposition {
        guard let response = response as? HTTPURLResponse else {
            fail(.transportFailed(status: nil), "not an HTTP response")
            return .cancel
        }
        let head = HTTPResponseHead(response)
        let accepted = state.withLock { state in
            guard !state.isFinished, !state.hasResponse else { return false }
            state.hasResponse = true
            state.expected = head.metadata.expectedLength
            state.lastActivity = .now
            return true
        }
        guard accepted else { return .cancel }

        switch head.statusCode {
        case 304:
            // Revalidation: the caller's cached copy is still good; there is no body to read.
            var metadata = head.metadata
            metadata.expectedLength = 0
            events.push(.response(metadata))
            finish(throwing: nil)
            return .cancel
        case 200..<300:
            if let expected = head.metadata.expectedLength, expected > configuration.maxBytes {
                fail(.tooLarge, "too large: \(expected) bytes exceeds the limit of \(configuration.maxBytes) bytes")
                return .cancel
            }
            events.push(.response(head.metadata))
            return .allow
        default:
            fail(.transportFailed(status: head.statusCode), head.statusReason, retryAfter: head.metadata.retryAfter)
            return .cancel
        }
    }

    func receive(_ data: Data) {
        let verdict = state.withLock { state -> Bool? in
            guard !state.isFinished else { return nil }
            state.received += Int64(data.count)
            state.lastActivity = .now
            return state.received <= configuration.maxBytes
        }
        switch verdict {
        case true?: events.push(.bytes(data))
        case false?: fail(.tooLarge, "too large: more than \(configuration.maxBytes) bytes")
        case nil: break
        }
    }

    func redirect(_ response: HTTPURLResponse, to request: URLRequest) -> URLRequest? {
        let status = response.statusCode
        // FoundationNetworking rewrites a `Location` of another scheme into a same-host http URL, so the header
        // itself is checked, not only the request URLSession proposes.
        let location = HTTPResponseHead.locationURL(of: response)
        for target in [location, request.url] {
            guard let target, !["http", "https"].contains(target.scheme?.lowercased() ?? "") else { continue }
            fail(
                .transportFailed(status: status),
                "refused redirect to \(target.absoluteString): only http and https are followed")
            return nil
        }
        guard let url = request.url else {
            fail(.transportFailed(status: status), "refused redirect to an invalid URL")
            return nil
        }
        let count = state.withLock { state in
            state.redirects += 1
            state.lastActivity = .now
            return state.redirects
        }
        guard count <= configuration.maxRedirects else {
            fail(.transportFailed(status: status), "too many redirects (more than \(configuration.maxRedirects))")
            return nil
        }
        do {
            _ = try HTTPRequestValidation.validatedURL(url)
        } catch {
            fail(.transportFailed(status: status), "refused redirect to an invalid URL: \(url.absoluteString)")
            return nil
        }
        var next = request
        // Every hop passes the loader's source policy (its URL and its addresses) before anything is sent to it.
        do {
            let allowed = try limits.checkRedirect(to: url, source: source)
            try HostAddressCheck.check(allowed, limits: limits, source: source)
            next.url = allowed
        } catch {
            finish(throwing: ImagoError.wrapping(error, source: source))
            return nil
        }
        if response.url.map({ !HTTPRequestValidation.isSameOrigin($0, url) }) ?? true {
            // Credentials meant for one origin are not handed to another.
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return next
    }

    func complete(_ error: (any Error)?) {
        let (received, expected, hasResponse) = state.withLock { ($0.received, $0.expected, $0.hasResponse) }
        if let expected, received < expected {
            fail(.connectionFailed, "truncated body: received \(received) of \(expected) bytes")
        } else if let error {
            finish(throwing: HTTPFailure.error(for: error, source: source))
        } else if !hasResponse {
            fail(.connectionFailed, "the server sent no response")
        } else {
            finish(throwing: nil)
        }
    }

    // MARK: Deadlines

    /// Where the watchdogs of every load fire.
    private static let deadlineQueue = DispatchQueue(label: "Imago.HTTPTransport.deadlines")

    /// Fails the fetch if a deadline has passed, else sets the watchdog for the nearer one.
    private func checkDeadlines() {
        let (lastActivity, hasResponse, watchdog) = state.withLock { ($0.lastActivity, $0.hasResponse, $0.watchdog) }
        guard let watchdog else { return }
        let now = ContinuousClock.now
        let total = startedAt.advanced(by: .seconds(configuration.totalDeadline))
        let idleEnd = lastActivity.advanced(by: .seconds(configuration.idleTimeout))
        if now >= total {
            let seconds = Self.format(configuration.totalDeadline)
            return fail(.timedOut, "timed out after \(seconds) s (total deadline)")
        }
        if now >= idleEnd {
            let seconds = Self.format(configuration.idleTimeout)
            let waiting = hasResponse ? "waiting for data" : "waiting for a response"
            return fail(.timedOut, "timed out after \(seconds) s \(waiting)")
        }
        let (wholeSeconds, attoseconds) = (min(idleEnd, total) - now).components
        let nanoseconds = Int(wholeSeconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        watchdog.schedule(deadline: .now() + .nanoseconds(nanoseconds), leeway: .milliseconds(5))
    }

    /// `0.3`, `30`: seconds without a useless `.0`.
    static func format(_ seconds: Double) -> String {
        seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
    }

    // MARK: Finishing

    private func fail(_ kind: ImagoError.Kind, _ reason: String, retryAfter: Double? = nil) {
        finish(throwing: ImagoError(kind, reason, source: source, retryAfter: retryAfter))
    }

    /// Ends the fetch once: cancels the task and the watchdog, then ends the stream (with `error`, if any).
    private func finish(throwing error: ImagoError?) {
        let resources = state.withLock { state -> (URLSessionTask?, (any DispatchSourceTimer)?)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer {
                state.task = nil
                state.watchdog = nil
            }
            return (state.task, state.watchdog)
        }
        guard let (task, watchdog) = resources else { return }
        if let task { callbackQueue.addOperation { task.cancel() } }
        watchdog?.cancel()
        events.end(throwing: error)
    }
}
