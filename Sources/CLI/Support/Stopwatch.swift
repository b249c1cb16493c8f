/// Timing helpers for the benchmarks and the load summary.
enum Stopwatch {
    /// Milliseconds elapsed since `start`.
    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).seconds * 1000
    }

    /// The value below which `fraction` of `values` lie (nearest rank); 0 for no values.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        if fraction == 0.5 && sorted.count % 2 == 0 {
            return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
