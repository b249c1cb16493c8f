import Foundation

/// The reconstruction filter a resize uses; when shrinking, it is widened by the scale factor so it averages
/// every source pixel it covers (area averaging), which keeps downscales free of aliasing.
public enum ResizeFilter: String, Sendable, Hashable, CaseIterable {
    /// Box: plain area averaging; fastest, soft when enlarging.
    case box
    /// Triangle: bilinear.
    case bilinear
    /// Catmull-Rom cubic: sharp with little ringing (the default).
    case catmullRom
    /// Lanczos with 3 lobes: sharpest, slowest.
    case lanczos3

    /// Half the width of the filter, in source pixels at scale 1.
    var support: Double {
        switch self {
        case .box: 0.5
        case .bilinear: 1
        case .catmullRom: 2
        case .lanczos3: 3
        }
    }

    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box:
            return x < 0.5 ? 1 : 0
        case .bilinear:
            return x < 1 ? 1 - x : 0
        case .catmullRom:
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        case .lanczos3:
            if x == 0 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

/// Weights of one axis of a separable resample: for each output pixel, a run of source pixels and their weights.
struct ResampleWeights {
    /// First source index of each output pixel.
    var starts: [Int]
    /// Number of source pixels of each output pixel.
    var counts: [Int]
    /// `stride` weights per output pixel, normalised to sum to 1.
    var weights: [Float]
    var stride: Int

    /// Weights mapping the source span `origin ..< origin + length` (in source pixels, possibly fractional) of an
    /// axis `sourceSize` long onto `outputSize` pixels.
    init(sourceSize: Int, origin: Double, length: Double, outputSize: Int, filter: ResizeFilter) {
        let scale = length / Double(outputSize)
        let filterScale = max(1, scale)
        let support = filter.support * filterScale
        stride = Int((support * 2).rounded(.up)) + 2
        starts = [Int](repeating: 0, count: outputSize)
        counts = [Int](repeating: 0, count: outputSize)
        weights = [Float](repeating: 0, count: outputSize * stride)
        // Taps stay inside the span, so a crop does not pull in pixels from beyond its edges.
        let lowest = max(0, Int(origin.rounded(.down)))
        let highest = min(sourceSize, Int((origin + length).rounded(.up)))
        for index in 0..<outputSize {
            let center = origin + (Double(index) + 0.5) * scale
            let first = max(lowest, Int((center - support).rounded(.down)))
            let last = min(highest, Int((center + support).rounded(.up)))
            var values: [Double] = []
            var total = 0.0
            for source in first..<max(first, last) {
                let value = filter.weight((Double(source) + 0.5 - center) / filterScale)
                values.append(value)
                total += value
            }
            if total == 0 {
                // Only possible for a box narrower than a pixel: take the nearest source pixel.
                let nearest = min(highest - 1, max(lowest, Int(center)))
                starts[index] = nearest
                counts[index] = 1
                weights[index * stride] = 1
                continue
            }
            // Trim zero weights at the ends so loops stay short.
            var low = 0
            var high = values.count
            while low < high - 1, values[low] == 0 { low += 1 }
            while high > low + 1, values[high - 1] == 0 { high -= 1 }
            starts[index] = first + low
            counts[index] = min(high - low, stride)
            for offset in 0..<counts[index] {
                weights[index * stride + offset] = Float(values[low + offset] / total)
            }
        }
    }
}
