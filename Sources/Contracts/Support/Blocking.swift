import Foundation

/// Runs synchronous work (a plugin's decode, encode or detection, a blocking wait) on a thread of its own, so Swift's
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
}
