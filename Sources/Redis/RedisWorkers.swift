import Dispatch
import Foundation
import Synchronization

/// A pool of threads of its own, each owning one Redis connection, that run the blocking hiredis calls.
///
/// hiredis blocks in `poll`, so its calls never run on Swift's cooperative pool: a call is queued, taken by the
/// first idle worker thread, and its result handed back through a continuation. A caller's wait can be bounded
/// by a deadline: when it passes the caller gets a timeout at once, even if the worker is still blocked (it then
/// gives up at its socket timeout and drops its connection), and a call still queued is skipped.
final class RedisWorkers: Sendable {
    private let queue: JobQueue
    /// Bumped by a failure, so every worker drops its connection (see `RedisSession`).
    private let generation = SharedGeneration()
    private static let timers = DispatchQueue(label: "imago.redis.deadlines")

    /// Starts `count` threads that connect to `endpoint` when first needed, with `timeout` for each step.
    init(count: Int, endpoint: RedisEndpoint, timeout: Double) {
        queue = JobQueue()
        for index in 0..<max(1, count) {
            let thread = Thread { [queue, generation] in
                let session = RedisSession(endpoint: endpoint, timeout: timeout, generation: generation)
                while let job = queue.next() { job(session) }
            }
            thread.name = "imago.redis.\(index)"
            thread.start()
        }
    }

    deinit { queue.close() }

    /// Runs `body` on a worker; after `deadline` seconds (if given) the wait ends with a timeout.
    func run<Value: Sendable>(
        deadline: Double?, _ body: @escaping @Sendable (RedisSession) throws(RedisFailure) -> Value
    ) async -> Result<Value, RedisFailure> {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            queue.push { session in
                guard !once.isResumed else { return }  // the caller gave up while the call waited for a worker
                do throws(RedisFailure) {
                    once.resume(.success(try body(session)))
                } catch {
                    once.resume(.failure(error))
                }
            }
            if let deadline {
                Self.timers.asyncAfter(deadline: .now() + deadline) {
                    once.resume(.failure(.timedOut(after: deadline)))
                }
            }
        }
    }
}

/// A worker thread's connection, opened when first needed and dropped after a failure.
///
/// A failure on one connection makes every worker drop its own before its next call (they share `generation`),
/// since the others most likely point at the same dead or restarted server. A call whose reused connection turns
/// out to be closed (a restart between two calls) is tried once more on a new connection.
final class RedisSession {
    private let endpoint: RedisEndpoint
    private let timeout: Double
    private let generation: SharedGeneration
    private var connection: (RedisConnection, generation: Int)?

    init(endpoint: RedisEndpoint, timeout: Double, generation: SharedGeneration) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.generation = generation
    }

    /// Sends one command, connecting first if needed.
    func command(_ arguments: [Data]) throws(RedisFailure) -> RedisReply {
        try withConnection { connection throws(RedisFailure) in try connection.command(arguments) }
    }

    /// Sends several commands at once.
    func pipeline(_ commands: [[Data]]) throws(RedisFailure) -> [RedisReply] {
        try withConnection { connection throws(RedisFailure) in try connection.pipeline(commands) }
    }

    private func withConnection<Value>(
        _ body: (RedisConnection) throws(RedisFailure) -> Value
    ) throws(RedisFailure) -> Value {
        let current = generation.value
        if let (_, made) = connection, made != current { connection = nil }
        let reused = connection != nil
        do throws(RedisFailure) {
            return try body(try open(current))
        } catch {
            guard reused, error.connectionLost else { throw drop(error) }
        }
        // The reused connection was closed under the call (a restart between calls): once more on a new one.
        connection = nil
        do throws(RedisFailure) {
            return try body(try open(current))
        } catch {
            throw drop(error)
        }
    }

    private func open(_ current: Int) throws(RedisFailure) -> RedisConnection {
        if let (open, _) = connection { return open }
        let open = try RedisConnection(endpoint, timeout: timeout)
        connection = (open, current)
        return open
    }

    private func drop(_ error: RedisFailure) -> RedisFailure {
        connection = nil
        generation.bump()
        return error
    }
}

/// Jobs waiting for a worker thread.
private final class JobQueue: @unchecked Sendable {  // every field is guarded by `condition`
    typealias Job = @Sendable (RedisSession) -> Void
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var closed = false

    func push(_ job: @escaping Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one; `nil` once closed.
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !closed { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head > 64 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    func close() {
        condition.lock()
        closed = true
        jobs.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// A continuation resumed by whichever comes first: the worker's result or the deadline.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = Mutex(continuation) }

    var isResumed: Bool { continuation.withLock { $0 == nil } }

    func resume(_ value: Value) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}

/// A counter the worker threads share.
final class SharedGeneration: Sendable {
    private let counter = Atomic<Int>(0)

    var value: Int { counter.load(ordering: .acquiring) }

    func bump() { counter.add(1, ordering: .releasing) }
}
