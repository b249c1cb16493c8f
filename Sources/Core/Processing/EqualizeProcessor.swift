/// Spreads each colour channel's histogram over 0…255, frame by frame: thumbor's `equalize()`, including its
/// reading of the lowest level. A level becomes `(cdf(level) − lowest) / (pixels − lowest) × 255`, truncated,
/// where `lowest` is the cumulative count at the first level present; as in thumbor, only the channels that have a
/// pixel at that first level (the darkest level any channel has) get it, the others keep 0, and a channel with a
/// single level becomes 0. Alpha is kept.
public struct EqualizeProcessor: ImageProcessor {
    /// Creates the processor.
    public init() {}

    /// `equalize`.
    public var identifier: String { "equalize" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try image.mappingRasters { raster in
            let tables = Self.tables(for: raster)
            return try raster.mappingColours(through: tables)
        }
    }

    /// The three lookup tables (red, green, blue) for `raster`'s histograms.
    static func tables(for raster: Raster) -> [[UInt8]] {
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        raster.withUnsafeBytes { bytes in
            for y in 0..<raster.height {
                var offset = y * raster.bytesPerRow
                for _ in 0..<raster.width {
                    histograms[0][Int(bytes[offset])] += 1
                    histograms[1][Int(bytes[offset + 1])] += 1
                    histograms[2][Int(bytes[offset + 2])] += 1
                    offset += 4
                }
            }
        }
        let area = raster.width * raster.height
        // The cumulative counts, at the levels present only.
        let cumulative = histograms.map { histogram in
            var total = 0
            return histogram.map { count in
                total += count
                return count > 0 ? total : 0
            }
        }
        // The darkest level any channel has gives `lowest` to the channels present there; the others keep 0.
        let first = (0..<256).first { level in cumulative.contains { $0[level] != 0 } } ?? 0
        return cumulative.map { counts in
            let lowest = counts[first]
            return (0..<256).map { level in
                guard area > lowest else { return 0 }
                let value = (Float(counts[level]) - Float(lowest)) / Float(area - lowest) * 255
                return UInt8(clamping: Int(value.rounded(.towardZero)))
            }
        }
    }
}

extension EqualizeProcessor: FrameWiseProcessing {
    /// Always: each frame is equalized by its own histogram, as thumbor equalizes each frame.
    public var processesFramesIndependently: Bool { true }
}
