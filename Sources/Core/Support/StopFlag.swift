import Synchronization

/// A flag raised when the task that started some CPU-bound work is cancelled, for the work to look at between its
/// steps (each frame, each processor, before encoding): work on the compute threads runs outside the task and
/// cannot see its cancellation itself.
package final class StopFlag: Sendable {
    private let raised = Atomic(false)

    package init() {}

    /// Raises the flag.
    package func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether the flag is raised.
    package var isRaised: Bool { raised.load(ordering: .relaxed) }

    /// Throws `cancelled` once the flag is raised.
    package func check() throws {
        if raised.load(ordering: .relaxed) { throw ImagoError(.cancelled, "cancelled") }
    }

    /// Runs `body` on the compute threads with a flag raised when the calling task is cancelled.
    package static func computing<T: Sendable>(_ body: @escaping @Sendable (StopFlag) throws -> T) async throws -> T {
        let stop = StopFlag()
        return try await withTaskCancellationHandler {
            try await WorkExecutor.compute.run { try body(stop) }
        } onCancel: {
            stop.raise()
        }
    }
}
