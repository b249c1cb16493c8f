import Foundation

/// Timing helpers for the GIF and WebP decode benchmarks: the median of several runs after warm-ups, in ms.
enum GIFWebPTiming {
    /// Times `imago` and `baseline` alternately (so load from other processes hits both alike) and returns the
    /// median of each, in milliseconds, after warm-ups.
    static func compare(
        _ name: String, runs: Int, warmups: Int = 3, imago: () throws -> Void, baseline: () throws -> Void
    ) rethrows -> Comparison {
        for _ in 0..<warmups {
            try imago()
            try baseline()
        }
        var imagoSamples: [Double] = []
        var baselineSamples: [Double] = []
        for _ in 0..<runs {
            imagoSamples.append(try milliseconds(imago))
            baselineSamples.append(try milliseconds(baseline))
        }
        return Comparison(
            name: name, imagoMilliseconds: median(imagoSamples), baselineMilliseconds: median(baselineSamples))
    }

    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

    /// One comparison line: ours, the C library called directly, and the ratio (≤ 1.10 is the goal).
    struct Comparison: CustomStringConvertible {
        var name: String
        var imagoMilliseconds: Double
        var baselineMilliseconds: Double
        var ratio: Double { imagoMilliseconds / baselineMilliseconds }

        var description: String {
            String(
                format: "%@: imago %.2f ms, C library %.2f ms, ratio %.3f", name, imagoMilliseconds,
                baselineMilliseconds, ratio)
        }
    }

    /// Deterministic pseudo-random numbers, so every run decodes the same input.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
    }
}
