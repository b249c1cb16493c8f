import ImagoCore
import Synchronization

/// Turns progress reports from any thread into at most one main-actor update per frame (about 60 a second), always
/// ending with the latest report: a fast download of many small chunks no longer queues one main-actor task each.
final class ProgressCoalescer: Sendable {
    /// The least time between two updates: one frame at 60 Hz.
    static let interval = Duration.milliseconds(16)

    private struct State {
        var latest: FetchProgress?
        /// The last report, delivered or not.
        var last: FetchProgress?
        var finished = false
        var scheduled = false
        var lastDelivery: ContinuousClock.Instant?
        var deliveries = 0
    }
    private let state = Mutex(State())
    private let deliver: @MainActor @Sendable (FetchProgress) -> Void

    /// Creates a coalescer calling `deliver` on the main actor.
    init(deliver: @escaping @MainActor @Sendable (FetchProgress) -> Void) {
        self.deliver = deliver
    }

    /// Updates delivered so far.
    var deliveryCount: Int { state.withLock { $0.deliveries } }

    /// Keeps `progress` as the latest; schedules one main-actor update unless one is pending.
    func report(_ progress: FetchProgress) {
        let (schedule, last) = state.withLock { state in
            if state.finished { return (false, state.lastDelivery) }
            state.latest = progress
            state.last = progress
            if state.scheduled { return (false, state.lastDelivery) }
            state.scheduled = true
            return (true, state.lastDelivery)
        }
        guard schedule else { return }
        Task { @MainActor in
            if let last { try? await Task.sleep(until: last.advanced(by: Self.interval), clock: .continuous) }
            let latest = self.state.withLock { state in
                defer {
                    state.latest = nil
                    state.scheduled = false
                    state.lastDelivery = .now
                    state.deliveries += 1
                }
                return state.latest
            }
            if let latest { self.deliver(latest) }
        }
    }

    /// Stops delivering (a pending update delivers nothing) and returns the last report, delivered or not.
    func finish() -> FetchProgress? {
        state.withLock { state in
            state.finished = true
            state.latest = nil
            return state.last
        }
    }
}
