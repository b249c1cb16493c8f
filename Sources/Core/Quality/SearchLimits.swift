/// What stops a quality search or a best-format choice between two encodes: a deadline (the search answers the
/// best it has found so far, marked `stoppedEarly`) and cancellation (it throws `CancellationError`). An encode
/// that has started runs to its end; a search does not start one it expects to end after the deadline.
public struct SearchLimits: Sendable {
    /// When the work must be done; nil for no deadline.
    public var deadline: ContinuousClock.Instant?
    /// Whether the caller has gone (checked before each encode); by default, whether the current task is cancelled.
    public var isCancelled: @Sendable () -> Bool

    /// Creates limits.
    public init(
        deadline: ContinuousClock.Instant? = nil, isCancelled: @escaping @Sendable () -> Bool = { Task.isCancelled }
    ) {
        self.deadline = deadline
        self.isCancelled = isCancelled
    }

    /// No deadline; stops only when the current task is cancelled.
    public static var none: SearchLimits { SearchLimits() }

    /// Seconds left before the deadline (infinity without one).
    var secondsLeft: Double {
        guard let deadline else { return .infinity }
        return ContinuousClock.now.duration(to: deadline).seconds
    }

    /// Throws `CancellationError` when the caller has gone.
    func checkCancellation() throws {
        if isCancelled() { throw CancellationError() }
    }
}
