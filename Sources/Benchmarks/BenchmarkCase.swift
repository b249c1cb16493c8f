import Foundation

/// One benchmark: our decoder against a baseline that calls the C library directly, on the same input.
struct BenchmarkCase {
    /// Name shown in the report, for example `jpeg-decode 4000x3000`.
    let name: String
    /// Decodes the input with Imago.
    let imago: () throws -> Void
    /// Decodes the input with the C library directly, into a reused buffer.
    let baseline: () throws -> Void

    /// Runs both alternately (so machine noise hits both alike) and takes the medians.
    func run(runs: Int, warmups: Int) throws -> BenchmarkResult {
        for _ in 0..<warmups {
            try imago()
            try baseline()
        }
        var ours: [Double] = []
        var floor: [Double] = []
        for _ in 0..<runs {
            ours.append(try Self.milliseconds(imago))
            floor.append(try Self.milliseconds(baseline))
        }
        return BenchmarkResult(name: name, imago: Self.median(ours), baseline: Self.median(floor))
    }

    static func milliseconds(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Medians of one case.
struct BenchmarkResult {
    let name: String
    let imago: Double
    let baseline: Double
    var ratio: Double { baseline > 0 ? imago / baseline : 0 }

    var line: String {
        let columns = [
            name.padding(toLength: 34, withPad: " ", startingAt: 0),
            String(format: "imago %8.2f ms", imago),
            String(format: "C floor %8.2f ms", baseline),
            String(format: "ratio %.3f", ratio),
        ]
        return columns.joined(separator: "  ")
    }
}

/// Command-line options.
struct BenchmarkOptions {
    var runs = 15
    var warmups = 3
    var filter: String?

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--runs": runs = iterator.next().flatMap(Int.init) ?? runs
            case "--warmups": warmups = iterator.next().flatMap(Int.init) ?? warmups
            default: filter = argument
            }
        }
    }
}

/// Synthetic inputs: a smooth picture with grain, deterministic, built without any decoder.
enum SyntheticImage {
    /// RGBA rows of a gradient with pseudo-random grain of ±`grain`.
    static func pixels(width: Int, height: Int, grain: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    state ^= state << 13
                    state ^= state >> 7
                    state ^= state << 17
                    let noise = Int(state % UInt64(2 * grain + 1)) - grain
                    let index = (y * width + x) * 4
                    buffer[index] = clamp(x * 255 / width + noise)
                    buffer[index + 1] = clamp(y * 255 / height + noise)
                    buffer[index + 2] = clamp((x ^ y) & 255 + noise / 2)
                }
            }
        }
        return pixels
    }

    private static func clamp(_ value: Int) -> UInt8 { UInt8(Swift.max(0, Swift.min(255, value))) }
}
