import Dispatch

/// Runs CPU-bound work (encoding) on Dispatch's threads, never on Swift's cooperative pool, and awaits it.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "imago.serve.encode", qos: .userInitiated, attributes: .concurrent)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
