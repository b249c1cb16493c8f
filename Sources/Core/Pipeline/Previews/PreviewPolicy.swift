/// How often a load in progress may show previews.
///
/// At most one preview per refinement step (a JPEG scan, an Adam7 pass), never sooner than `minimumInterval`
/// after the previous one (or after the first byte: an image that arrives within the interval gets none), and
/// never more CPU than `cpuShare` of the time the bytes take to arrive: after a preview that took `t` seconds
/// to render and process, the next waits at least `t / cpuShare`.
public struct PreviewPolicy: Sendable, Hashable {
    /// Seconds between two previews, at least.
    public var minimumInterval: Double
    /// The most of one core previews may use while the bytes arrive (0.1 = a tenth).
    public var cpuShare: Double

    /// Creates a policy; the defaults give a preview every 100 ms at most, for at most a tenth of a core.
    public init(minimumInterval: Double = 0.1, cpuShare: Double = 0.1) {
        self.minimumInterval = minimumInterval
        self.cpuShare = cpuShare
    }

    /// When the next preview may come, after one that took `cost` seconds and ended at `end` (seconds).
    func nextAllowed(after end: Double, cost: Double) -> Double {
        let share = cpuShare > 0 ? cpuShare : 1
        return end + Swift.max(minimumInterval, cost / share)
    }
}
