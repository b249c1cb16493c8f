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
    private static let timers = DispatchQueue(label: "imago.redis.deadlines")

    /// Starts `count` threads that connect to `endpoint` when first needed, with `timeout` for each step.
    init(count: Int, endpoint: RedisEndpoint, timeout: Double) {
        queue = JobQueue()
        for index in 0..<max(1, count) {
            let thread = Thread { [queue] in
                let session = RedisSession(endpoint: endpoint, timeout: timeout)
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
final class RedisSession {
    private let endpoint: RedisEndpoint
    private let timeout: Double
    private var connection: RedisConnection?

    init(endpoint: RedisEndpoint, timeout: Double) {
        self.endpoint = endpoint
        self.timeout = timeout
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
        do throws(RedisFailure) {
            if connection == nil { connection = try RedisConnection(endpoint, timeout: timeout) }
            return try body(connection!)
        } catch {
            connection = nil
            throw error
        }
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
