import Foundation

/// Runs blocking or CPU-heavy test work (a corpus of decodes, a detection, a socket read) on a thread of its own and
/// returns its result, so the cooperative pool (two threads here) stays free for the suites beside it: a test that
/// held one for seconds made other tests' timeouts and servers wait.
///
/// An `#expect` inside `work` is reported without the test's name (task-locals do not cross to the thread): return
/// what to check and check it on the caller's side.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
