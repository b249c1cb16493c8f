import Foundation
import Synchronization

/// A budget of bytes for decoded pixels: a decode waits until its pixels fit, so a burst of large images cannot
/// hold more memory than the budget, whatever the concurrency.
///
/// Waiters are admitted first come, first served (a large image is not starved by small ones). A single image
/// larger than the whole budget is admitted when nothing else holds any, and then runs alone. A `Reservation`
/// gives its bytes back when released, or when its last reference goes.
public final class PixelMemoryBudget: Sendable {
    /// The budget in bytes.
    public let capacity: Int
    private let state = Mutex(State())

    private struct Waiter {
        var id: Int
        var bytes: Int
        var continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var used = 0
        var holders = 0
        var waiting: [Waiter] = []
        var nextID = 0
        /// Ids whose task was cancelled before its waiter was queued.
        var cancelledEarly: Set<Int> = []
        /// Ids allocated and not yet queued.
        var arriving: Set<Int> = []
    }

    /// Creates a budget of `capacity` bytes (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The default budget: the smaller of a tenth of the machine's memory and 1 GiB.
    public static var defaultCapacity: Int {
        Int(min(ProcessInfo.processInfo.physicalMemory / 10, 1 << 30))
    }

    /// Bytes reserved now.
    public var usedBytes: Int { state.withLock { $0.used } }
    /// Reservations waiting now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits until `bytes` fit (or nothing else is reserved) and reserves them. Throws `CancellationError` when
    /// the task is cancelled while waiting.
    public func reserve(bytes: Int) async throws -> Reservation {
        try Task.checkCancellation()
        let bytes = max(0, bytes)
        let id: Int? = state.withLock { state in
            if state.waiting.isEmpty, fits(bytes, state) {
                take(bytes, &state)
                return nil
            }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        if let id {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state in
                        state.arriving.remove(id)
                        if state.cancelledEarly.remove(id) != nil { return true }
                        state.waiting.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                    // Bytes may have come back between the first look and the enqueue.
                    admitWaiters()
                }
            } onCancel: {
                let removed: Waiter? = state.withLock { state in
                    if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                        return state.waiting.remove(at: index)
                    }
                    // Not queued yet: the enqueue sees this. Already admitted: nothing to do.
                    if state.arriving.contains(id) { state.cancelledEarly.insert(id) }
                    return nil
                }
                removed?.continuation.resume(throwing: CancellationError())
                // The head may have been what blocked the others.
                admitWaiters()
            }
        }
        return Reservation(budget: self, bytes: bytes)
    }

    /// Reserves `bytes` now, without waiting, even over the budget (for pixels that exist already).
    func reserveNow(bytes: Int) -> Reservation {
        state.withLock { take(max(0, bytes), &$0) }
        return Reservation(budget: self, bytes: max(0, bytes))
    }

    fileprivate func give(back bytes: Int) {
        state.withLock { state in
            state.used -= bytes
            state.holders -= 1
        }
        admitWaiters()
    }

    private func admitWaiters() {
        let admitted: [Waiter] = state.withLock { state in
            var admitted: [Waiter] = []
            while let first = state.waiting.first, fits(first.bytes, state) {
                take(first.bytes, &state)
                admitted.append(state.waiting.removeFirst())
            }
            return admitted
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    private func fits(_ bytes: Int, _ state: State) -> Bool {
        state.holders == 0 || state.used + bytes <= capacity
    }

    private func take(_ bytes: Int, _ state: inout State) {
        state.used += bytes
        state.holders += 1
    }

    /// Test hook: ids remembered for cancellations that raced an admission (must not grow).
    var rememberedCancellations: Int { state.withLock { $0.cancelledEarly.count } }

    /// Bytes held from a budget until `release()` or until the last reference goes.
    public final class Reservation: Sendable {
        /// The bytes held.
        public let bytes: Int
        private let budget: PixelMemoryBudget
        private let released = Atomic(false)

        fileprivate init(budget: PixelMemoryBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        /// Gives the bytes back (once; later calls do nothing).
        public func release() {
            if !released.exchange(true, ordering: .acquiringAndReleasing) { budget.give(back: bytes) }
        }

        deinit { release() }
    }
}

extension PixelMemoryBudget {
    /// Runs `body`, keeping the budget of every image a loader hands over inside it until `body` returns: for a
    /// caller that goes on working with the pixels (encoding and writing them), so decoded-but-unwritten images
    /// stay within the budget too.
    public static func holdingHandedOverImages<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        let holder = ReservationHolder()
        defer { holder.releaseAll() }
        return try await ReservationHolder.$current.withValue(holder) { try await body() }
    }

    /// Called by the loader at hand-over: keeps `reservation` when the caller is inside
    /// `holdingHandedOverImages`.
    static func keepIfHolding(_ reservation: Reservation?) {
        if let reservation, let holder = ReservationHolder.current { holder.keep(reservation) }
    }
}

/// The reservations kept by `PixelMemoryBudget.holdingHandedOverImages`.
final class ReservationHolder: Sendable {
    @TaskLocal static var current: ReservationHolder?
    private let reservations = Mutex<[PixelMemoryBudget.Reservation]>([])

    func keep(_ reservation: PixelMemoryBudget.Reservation) { reservations.withLock { $0.append(reservation) } }

    func releaseAll() {
        for reservation in reservations.withLock({ $0 }) { reservation.release() }
        reservations.withLock { $0 = [] }
    }
}
