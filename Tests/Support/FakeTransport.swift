import Foundation
import ImagoCore
import Synchronization

/// A transport for `fake://host/path` that serves bytes set per path, counts calls, can wait on a gate, fail a
/// number of times, stream in chunks, and records when its stream is terminated early.
public final class FakeTransport: ImageTransport {
    public struct Behavior: Sendable {
        public var data: Data
        public var metadata = TransportMetadata(statusCode: 200)
        /// Failures thrown before the first success.
        public var failures: [ImagoError] = []
        /// Bytes per `.bytes` event.
        public var chunkSize = Int.max
        /// When set, the fetch waits for it to open before sending anything.
        public var gate: AsyncGate?
        /// Answer 304 when the request's If-None-Match equals this.
        public var notModifiedFor: String?

        /// Creates a behaviour.
        public init(
            data: Data, metadata: TransportMetadata = TransportMetadata(statusCode: 200), failures: [ImagoError] = [],
            chunkSize: Int = Int.max, gate: AsyncGate? = nil, notModifiedFor: String? = nil
        ) {
            self.data = data
            self.metadata = metadata
            self.failures = failures
            self.chunkSize = chunkSize
            self.gate = gate
            self.notModifiedFor = notModifiedFor
        }
    }

    public struct State {
        public var behaviors: [String: Behavior] = [:]
        public var requests: [TransportRequest] = []
        public var terminations = 0
        public var active = 0
        public var maxActive = 0
        public var activeByHost: [String: Int] = [:]
        public var maxActiveByHost: [String: Int] = [:]
    }

    public let schemes: Set<String>
    public let state = Mutex(State())
    /// Answers are kept by the HTTP rules unless a test says otherwise.
    public let cachePolicy: (any TransportCachePolicy)?

    public init(schemes: Set<String> = ["fake"], cachePolicy: (any TransportCachePolicy)? = HTTPCachePolicy()) {
        self.schemes = schemes
        self.cachePolicy = cachePolicy
    }

    public func serve(_ path: String, _ behavior: Behavior) { state.withLock { $0.behaviors[path] = behavior } }
    public func serve(_ path: String, data: Data) { serve(path, Behavior(data: data)) }

    public var callCount: Int { state.withLock { $0.requests.count } }
    public var requests: [TransportRequest] { state.withLock { $0.requests } }
    public var terminations: Int { state.withLock { $0.terminations } }
    public var maxActive: Int { state.withLock { $0.maxActive } }
    public func maxActive(host: String) -> Int { state.withLock { $0.maxActiveByHost[host] ?? 0 } }

    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let path = request.url.path
        let host = request.url.host ?? ""
        let behavior: Behavior? = state.withLock { state in
            state.requests.append(request)
            state.active += 1
            state.maxActive = max(state.maxActive, state.active)
            state.activeByHost[host, default: 0] += 1
            state.maxActiveByHost[host] = max(state.maxActiveByHost[host] ?? 0, state.activeByHost[host]!)
            guard var behavior = state.behaviors[path] else { return nil }
            if !behavior.failures.isEmpty {
                let failure = behavior.failures.removeFirst()
                state.behaviors[path] = behavior
                behavior.failures = [failure]
            }
            return behavior
        }
        let source = request.url.absoluteString
        return AsyncThrowingStream { continuation in
            let task = Task {
                defer {
                    self.state.withLock {
                        $0.active -= 1; $0.activeByHost[host]! -= 1
                    }
                }
                guard let behavior else {
                    return continuation.finish(
                        throwing: ImagoError(.transportFailed(status: 404), "404 Not Found", source: source))
                }
                await behavior.gate?.wait()
                if let failure = behavior.failures.first {
                    return continuation.finish(throwing: failure.naming(source))
                }
                if let etag = behavior.notModifiedFor, request.ifNoneMatch == etag {
                    continuation.yield(.response(TransportMetadata(statusCode: 304, etag: etag)))
                    return continuation.finish()
                }
                var metadata = behavior.metadata
                metadata.expectedLength = Int64(behavior.data.count)
                continuation.yield(.response(metadata))
                var offset = 0
                while offset < behavior.data.count {
                    if Task.isCancelled { return continuation.finish(throwing: CancellationError()) }
                    let end = min(behavior.data.count, offset + behavior.chunkSize)
                    continuation.yield(.bytes(behavior.data.subdata(in: offset..<end)))
                    offset = end
                    await Task.yield()
                }
                continuation.finish()
            }
            continuation.onTermination = { reason in
                if case .cancelled = reason {
                    self.state.withLock { $0.terminations += 1 }
                    task.cancel()
                }
            }
        }
    }
}

/// A one-shot gate that suspends waiters until it is opened.
public final class AsyncGate: Sendable {
    private struct State {
        public var isOpen = false
        public var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// Waits until `condition` holds, giving up after a generous bound (a failing test then fails its next check).
public func eventually(_ condition: () -> Bool) async {
    for _ in 0..<4000 where !condition() {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
}
