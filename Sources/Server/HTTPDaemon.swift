import CMicroHTTPD
import CMicroHTTPDShim
import Foundation
import Imago
import Synchronization

/// libmicrohttpd behind a Swift handler: its threads parse HTTP, keep connections alive, bound their size and
/// time; each request is handed to `handler`, and one that must wait (for a source) suspends its connection and
/// resumes it when the answer is ready.
final class HTTPDaemon: Sendable {
    typealias Handler = @Sendable (HTTPRequest) -> HTTPAnswer
    typealias Logger = @Sendable (HTTPRequest, HTTPResponse, _ seconds: Double) -> Void

    /// A request's state, kept by MHD as its `con_cls` from the request line to completion.
    final class RequestState: Sendable {
        enum Phase { case new, received, waiting, answered }
        struct Inner {
            var phase = Phase.new
            var request: HTTPRequest?
            var response: HTTPResponse?
            /// No longer counted in `unanswered` (answered after its wait, or ended by MHD without an answer).
            var settled = false
        }
        let target: String
        let time = Date()
        let start = ContinuousClock.now
        let inner = Mutex(Inner())
        init(target: String) { self.target = target }
    }

    /// A connection pointer to carry across tasks; MHD allows resuming from any thread.
    struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// A suspended request: its connection, and the task working on its answer (cancelled if the client goes).
    private struct Waiting {
        var state: RequestState
        var connection: Connection
        var task: Task<Void, Never>?
    }

    private struct Pending {
        var waiting: [ObjectIdentifier: Waiting] = [:]
        var unanswered = 0
        var stopped = false
        var draining = false
    }

    let handler: Handler
    let logger: Logger
    /// The shim's server; MHD's functions may be called from any thread.
    private struct ServerHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let server = Mutex<ServerHandle?>(nil)
    private let pending = Mutex(Pending())
    private let boundPort = Atomic<Int>(0)
    private let disconnects = Mutex<DisconnectWatcher?>(nil)
    /// The port bound.
    var port: Int { boundPort.load(ordering: .relaxed) }

    /// Starts listening on `address`; a port in use or a bad address throws `invalidConfiguration` saying so.
    init(
        address: ListenAddress, threads: Int, connectionLimit: Int, idleTimeout: Int, memoryLimit: Int,
        handler: @escaping Handler, logger: @escaping Logger
    ) throws {
        self.handler = handler
        self.logger = logger
        var callbacks = imago_mhd_callbacks(
            context: nil, began: HTTPDaemon.began, handle: HTTPDaemon.handle, completed: HTTPDaemon.completed)
        var error = [CChar](repeating: 0, count: 256)
        // MHD calls back into this object from its threads, which start inside `imago_mhd_start`.
        let started: OpaquePointer? = address.host.withCString { host in
            var options = imago_mhd_options(
                host: host, port: UInt16(address.port), threads: UInt32(threads),
                connection_limit: UInt32(connectionLimit), timeout: UInt32(idleTimeout), memory_limit: memoryLimit,
                backlog: 1024)
            callbacks.context = Unmanaged.passUnretained(self).toOpaque()
            return imago_mhd_start(&options, &callbacks, &error, error.count)
        }
        guard let started else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagoError(.invalidConfiguration, "cannot listen on \(address): \(reason)")
        }
        server.withLock { $0 = ServerHandle(pointer: started) }
        disconnects.withLock { $0 = DisconnectWatcher { [weak self] id in self?.clientLeft(id) } }
        boundPort.store(Int(imago_mhd_bound_port(started)), ordering: .relaxed)
    }

    /// Requests waiting for their answer now.
    var unanswered: Int { pending.withLock { $0.unanswered } }

    /// Whether the daemon stopped accepting connections (it drains).
    var isDraining: Bool { pending.withLock { $0.draining } }

    /// Stops accepting connections; those open are still served, with `Connection: close`.
    func stopAccepting() {
        let first = pending.withLock { pending in
            defer { pending.draining = true }
            return !pending.draining
        }
        guard first else { return }
        server.withLock { server in if let server { imago_mhd_stop_accepting(server.pointer) } }
    }

    /// Waits for the requests in flight, then stops: all within `grace` seconds, the last part of which is kept for
    /// answering what still waits (503) and closing.
    func drain(grace: Double) async {
        stopAccepting()
        let end = ContinuousClock.now + .milliseconds(Int(grace * 1000))
        let answerBy = end - .milliseconds(min(500, Int(grace * 250)))
        while unanswered > 0 && ContinuousClock.now < answerBy { try? await Task.sleep(for: .milliseconds(20)) }
        stop(by: end)
    }

    /// Stops: requests still waiting get a 503 and their work is cancelled, then every connection is closed,
    /// waiting for MHD to send those answers until `end` at the latest (2 s by default).
    func stop(by end: ContinuousClock.Instant? = nil) {
        stopAccepting()
        let late = pending.withLock { pending in
            let late = Array(pending.waiting.values)
            pending.waiting.removeAll()
            return late
        }
        for waiting in late {
            waiting.task?.cancel()
            waiting.state.inner.withLock {
                $0.response = HTTPResponse(
                    failure: ServeFailure(answering: RequestError(.shuttingDown, "shutting down")))
            }
            MHD_resume_connection(waiting.connection.pointer)
        }
        // MHD must process the resumed connections before it stops: stopping with suspended ones aborts. So it
        // gets a moment for that even when the grace is spent (or zero).
        let last = max(end ?? ContinuousClock.now + .seconds(2), ContinuousClock.now + .milliseconds(200))
        while unanswered > 0 && ContinuousClock.now < last { usleep(2000) }
        pending.withLock { $0.stopped = true }
        disconnects.withLock { watcher in
            watcher?.stop()
            watcher = nil
        }
        server.withLock { server in
            if let running = server { imago_mhd_stop(running.pointer) }
            server = nil
        }
    }

    /// The client of a waiting request closed its connection: its work is cancelled (shared work goes on for the
    /// others that wait for it) and the request is answered 499, as nginx logs a client that left, so it no longer
    /// counts as in flight.
    private func clientLeft(_ id: ObjectIdentifier) {
        pending.withLock { pending in
            guard !pending.stopped, let waiting = pending.waiting.removeValue(forKey: id) else { return }
            waiting.task?.cancel()
            waiting.state.inner.withLock {
                $0.response = HTTPResponse(failure: Self.clientLeft)
            }
            MHD_resume_connection(waiting.connection.pointer)
        }
    }

    deinit { stop() }

    /// The answer logged for a client that left (nginx's 499).
    static let clientLeft = ServeFailure(answering: RequestError(.clientLeft, "the client closed the connection"))

    // MARK: MHD's callbacks

    private static let began:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? =
            { _, uri, _ in
                let state = RequestState(target: uri.map { String(cString: $0) } ?? "")
                return Unmanaged.passRetained(state).toOpaque()
            }

    private static let handle:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) ->
            MHD_Result = { context, connection, method, state in
                guard let context, let connection, let state else { return MHD_Result(rawValue: 0)! }
                let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
                let request = Unmanaged<RequestState>.fromOpaque(state).takeUnretainedValue()
                return daemon.handle(
                    Connection(pointer: connection), method: method.map { String(cString: $0) } ?? "", state: request)
            }

    private static let completed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
        context, state in
        guard let state else { return }
        let request = Unmanaged<RequestState>.fromOpaque(state)
        if let context {
            // (Without retaining the daemon: MHD also ends requests while the daemon stops, from its deinit.)
            Unmanaged<HTTPDaemon>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.ended(request.takeUnretainedValue())
            }
        }
        request.release()
    }

    /// Takes a request that waited out of `unanswered`, once, whichever of its answer or its end comes first;
    /// returns whether this call did.
    @discardableResult
    private func settle(_ state: RequestState) -> Bool {
        let first = state.inner.withLock { inner -> Bool in
            defer { inner.settled = true }
            return !inner.settled && inner.phase == .waiting
        }
        if first { pending.withLock { $0.unanswered -= 1 } }
        return first
    }

    /// MHD ended a request. One that was still waiting was never answered: its client went away and MHD closed
    /// the connection without asking for the answer, so its work is cancelled and it is logged as 499 here.
    private func ended(_ state: RequestState) {
        guard settle(state) else { return }
        let waiting = pending.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(state)) }
        waiting?.task?.cancel()
        disconnects.withLock { $0?.unwatch(ObjectIdentifier(state)) }
        guard let request = state.inner.withLock({ $0.request }) else { return }
        logger(
            request, HTTPResponse(failure: Self.clientLeft),
            request.start.duration(to: .now).seconds)
    }

    private func handle(_ connection: Connection, method: String, state: RequestState) -> MHD_Result {
        let (phase, ready) = state.inner.withLock { inner in (inner.phase, inner.response) }
        switch phase {
        case .answered:
            return MHD_Result(rawValue: 1)!
        case .waiting:
            guard let ready, let request = state.inner.withLock({ $0.request }) else { return MHD_Result(rawValue: 1)! }
            settle(state)
            return queue(ready, for: request, state: state, on: connection)
        case .new:
            // The first call comes with the head alone; answering then would make MHD close the connection (it
            // cannot know the body was read), so the request is answered on the next call, once it is complete.
            state.inner.withLock { $0.phase = .received }
            return MHD_Result(rawValue: 1)!
        case .received:
            let request = HTTPRequest(
                method: method, target: state.target, accept: header("Accept", of: connection),
                ifNoneMatch: header("If-None-Match", of: connection),
                ifModifiedSince: header("If-Modified-Since", of: connection), time: state.time, start: state.start)
            state.inner.withLock { $0.request = request }
            switch handler(request) {
            case .now(let response):
                return queue(response, for: request, state: state, on: connection)
            case .later(let work):
                state.inner.withLock { $0.phase = .waiting }
                let id = ObjectIdentifier(state)
                pending.withLock { pending in
                    pending.unanswered += 1
                    pending.waiting[id] = Waiting(state: state, connection: connection)
                }
                MHD_suspend_connection(connection.pointer)
                // Watched before the work starts, so the answer's `unwatch` always comes after.
                disconnects.withLock { $0?.watch(id, fd: imago_mhd_connection_fd(connection.pointer)) }
                let task = Task {
                    let response = await work()
                    self.finish(state, with: response)
                }
                let cancelled = pending.withLock { pending in
                    pending.waiting[id]?.task = task
                    return pending.waiting[id] == nil
                }
                if cancelled { task.cancel() }
                return MHD_Result(rawValue: 1)!
            }
        }
    }

    /// Hands `response` to a suspended request and resumes its connection, unless the drain answered it already.
    private func finish(_ state: RequestState, with response: HTTPResponse) {
        let id = ObjectIdentifier(state)
        disconnects.withLock { $0?.unwatch(id) }
        pending.withLock { pending in
            guard !pending.stopped, let waiting = pending.waiting.removeValue(forKey: id) else { return }
            state.inner.withLock { $0.response = response }
            MHD_resume_connection(waiting.connection.pointer)
        }
    }

    private func queue(
        _ response: HTTPResponse, for request: HTTPRequest, state: RequestState, on connection: Connection
    )
        -> MHD_Result
    {
        state.inner.withLock { $0.phase = .answered }
        let reply = response.body.withUnsafeBytes { bytes in
            imago_mhd_response(bytes.baseAddress, bytes.count)
        }
        guard let reply else { return MHD_Result(rawValue: 0)! }
        defer { MHD_destroy_response(reply) }
        for (name, value) in response.headers { _ = MHD_add_response_header(reply, name, value) }
        if pending.withLock({ $0.draining }) { _ = MHD_add_response_header(reply, "Connection", "close") }
        let result = MHD_queue_response(connection.pointer, UInt32(response.status), reply)
        logger(request, response, request.start.duration(to: .now).seconds)
        return result
    }

    private func header(_ name: String, of connection: Connection) -> String? {
        imago_mhd_header(connection.pointer, name).map { String(cString: $0) }
    }
}
