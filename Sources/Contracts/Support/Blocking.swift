import Foundation
import Synchronization

/// Runs synchronous work (a plugin's decode, encode or detection, a blocking wait) on threads of its own, so Swift's
/// cooperative pool only awaits: a check never starves the tasks beside it (a test suite's timers and servers),
/// and a plugin that hangs holds its own thread, not one of the pool's few.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Runs `work` for jobs `0..<count` on `width` threads at once (each takes the next job when it is done), and
    /// returns the results in job order. The width bounds the memory of a plugin whose calls are large, while still
    /// calling it from several threads at a time.
    static func concurrently<T: Sendable>(
        _ count: Int, width: Int = max(4, ProcessInfo.processInfo.activeProcessorCount),
        _ work: @escaping @Sendable (Int) -> T
    ) async -> [T] {
        await run {
            let results = Mutex<[T?]>(Array(repeating: nil, count: count))
            let next = Atomic(0)
            let group = DispatchGroup()
            for _ in 0..<min(width, count) {
                group.enter()
                Thread {
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        if index >= count { break }
                        let value = work(index)
                        results.withLock { $0[index] = value }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            return results.withLock { $0.map { $0! } }  // every job has run
        }
    }
}
