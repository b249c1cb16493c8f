import Dispatch
import Foundation
import Synchronization

/// A bounded set of threads of its own for CPU-bound or blocking work (decoding, resizing, encoding, file I/O), so
/// Swift's cooperative pool only awaits: `run` suspends the caller while the closure runs on one of these threads.
///
/// Jobs start in the order they were submitted. Cancelling the calling task before its job starts drops the job and
/// throws `CancellationError`; a job that has started runs to the end and its result is returned (work begun is not
/// wasted). Threads are started on demand, up to `threadCount`, and end after a few idle seconds.
public final class WorkExecutor: Sendable {
    /// For CPU-bound work: one thread per core.
    public static let compute = WorkExecutor(
        name: "imago.compute", threadCount: ProcessInfo.processInfo.activeProcessorCount)
    /// For blocking file I/O: a few threads per core, since they mostly wait on the disk.
    public static let io = WorkExecutor(
        name: "imago.io", threadCount: min(16, max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)))

    /// Most threads running jobs at once.
    public let threadCount: Int
    let name: String
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    private struct Queue {
        /// Started jobs are set to nil at once: a job's closure holds what it works on (a whole decoded image).
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        var threads = 0
        var busy = 0

        var pending: Int { jobs.count - head }

        mutating func pop() -> (@Sendable () -> Void)? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head > 64 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// Creates an executor of at most `threadCount` threads (at least one).
    public init(name: String, threadCount: Int) {
        self.name = name
        self.threadCount = max(1, threadCount)
    }

    /// Runs `body` on one of the executor's threads and returns its result; the caller is suspended meanwhile.
    /// Throws `CancellationError` when the task is cancelled before the job starts.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        // A task that prefers this executor (`withTaskExecutorPreference`) is on one of its threads already.
        if isCurrent { return try body() }
        let job = WorkJob(body)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                if job.install(continuation) { submit { job.start() } }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// Runs `body` on one of the executor's threads whatever happens to the calling task (for work that must not
    /// be dropped half-way, such as cache bookkeeping).
    public func runToCompletion<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if isCurrent { return body() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            submit { continuation.resume(returning: body()) }
        }
    }

    /// Starts `body` on one of the executor's threads without waiting for it (background maintenance).
    public func execute(_ body: @escaping @Sendable () -> Void) {
        submit(body)
    }

    /// Jobs submitted and not yet started.
    var pendingCount: Int { queue.withLock { $0.pending } }
    /// Threads alive now.
    var liveThreadCount: Int { queue.withLock { $0.threads } }

    private func submit(_ job: @escaping @Sendable () -> Void) {
        let startThread = queue.withLock { queue in
            queue.jobs.append(job)
            // Another thread only when the idle ones cannot take every pending job.
            guard queue.threads < threadCount, queue.pending > queue.threads - queue.busy else { return false }
            queue.threads += 1
            return true
        }
        available.signal()
        if startThread {
            let thread = Thread { [self] in workLoop() }
            thread.name = name
            thread.start()
        }
    }

    /// The name of the executor whose thread is running the caller; nil anywhere else (the cooperative pool).
    public static var currentName: String? { current?.name }

    /// The executor whose thread is running the caller; nil anywhere else (the cooperative pool).
    public static var current: WorkExecutor? {
        (Thread.current.threadDictionary[threadKey] as? CurrentExecutor)?.executor
    }
    private static let threadKey = "imago.WorkExecutor"

    /// Whether the caller runs on one of this executor's threads.
    var isCurrent: Bool { Self.current === self }

    private func workLoop() {
        Thread.current.threadDictionary[Self.threadKey] = CurrentExecutor(executor: self)
        while true {
            if available.wait(timeout: .now() + .seconds(Self.idleSeconds)) == .timedOut {
                let exit = queue.withLock { queue in
                    guard queue.pending == 0 else { return false }
                    queue.threads -= 1
                    return true
                }
                if exit { return }
                continue
            }
            let job: (@Sendable () -> Void)? = queue.withLock { queue in
                guard let job = queue.pop() else { return nil }
                queue.busy += 1
                return job
            }
            guard let job else { continue }
            job()
            queue.withLock { $0.busy -= 1 }
        }
    }

    private static let idleSeconds = 5
}

/// Tasks that prefer a `WorkExecutor` (`withTaskExecutorPreference`, `Task(executorPreference:)`) run on its
/// threads, and its `run` calls from there run inline: a batch whose stages all run on the compute executor moves
/// from stage to stage without a thread switch.
extension WorkExecutor: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// The executor of a thread, kept in its thread dictionary.
private final class CurrentExecutor: Sendable {
    let executor: WorkExecutor
    init(executor: WorkExecutor) { self.executor = executor }
}

/// One job of `WorkExecutor.run`: waiting, running or done, so a cancellation and the start never both win.
private final class WorkJob<T: Sendable>: Sendable {
    private enum State {
        case created
        case waiting(CheckedContinuation<T, any Error>)
        case running
        case cancelled
        case done
    }
    private let body: @Sendable () throws -> T
    private let state = Mutex(State.created)

    init(_ body: @escaping @Sendable () throws -> T) { self.body = body }

    /// Keeps the continuation; false (and resumed with `CancellationError`) when cancelled already.
    func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if case .cancelled = state {
                state = .done
                return true
            }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// On an executor thread: runs the body unless the job was cancelled first.
    func start() {
        let continuation: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .running
            return continuation
        }
        guard let continuation else { return }
        let result = Result { try body() }
        state.withLock { $0 = .done }
        continuation.resume(with: result)
    }

    func cancel() {
        let continuation: CheckedContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .created:
                state = .cancelled
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .running, .cancelled, .done:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }
}
