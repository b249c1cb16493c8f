import ImagoCore

/// Area-average resampling in premultiplied space, so edges of transparent images stay clean.
///
/// Each output pixel averages the source area it covers (weights are the covered fractions), which is a box
/// filter when shrinking and close to bilinear when enlarging: good enough for previews and contact sheets.
enum Resampler {
    /// `raster` scaled to exactly `width` × `height`.
    static func resize(_ raster: Raster, width: Int, height: Int) throws -> Raster {
        if width == raster.width && height == raster.height { return raster }
        let columns = weights(from: raster.width, to: width)
        let rows = weights(from: raster.height, to: height)
        // Horizontal pass into premultiplied floats, one source row at a time.
        var horizontal = [Float](repeating: 0, count: raster.height * width * 4)
        raster.withUnsafeBytes { bytes in
            for y in 0..<raster.height {
                let rowStart = y * raster.bytesPerRow
                for (x, taps) in columns.enumerated() {
                    var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                    for tap in taps {
                        let offset = rowStart + tap.index * 4
                        let alpha = Float(bytes[offset + 3]) * tap.weight
                        r += Float(bytes[offset]) * alpha
                        g += Float(bytes[offset + 1]) * alpha
                        b += Float(bytes[offset + 2]) * alpha
                        a += alpha
                    }
                    let target = (y * width + x) * 4
                    horizontal[target] = r
                    horizontal[target + 1] = g
                    horizontal[target + 2] = b
                    horizontal[target + 3] = a
                }
            }
        }
        return try Raster(width: width, height: height) { output in
            for (y, taps) in rows.enumerated() {
                for x in 0..<width {
                    var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                    for tap in taps {
                        let source = (tap.index * width + x) * 4
                        r += horizontal[source] * tap.weight
                        g += horizontal[source + 1] * tap.weight
                        b += horizontal[source + 2] * tap.weight
                        a += horizontal[source + 3] * tap.weight
                    }
                    let target = y * width * 4 + x * 4
                    // Back to straight alpha: the colour sums carry alpha × 255.
                    let inverse: Float = a > 0 ? 1 / a : 0
                    output[target] = clamp(r * inverse)
                    output[target + 1] = clamp(g * inverse)
                    output[target + 2] = clamp(b * inverse)
                    output[target + 3] = clamp(a)
                }
            }
        }
    }

    private struct Tap {
        let index: Int
        let weight: Float
    }

    /// For each output position, the source positions it covers and their normalised weights.
    private static func weights(from source: Int, to target: Int) -> [[Tap]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { position in
            var start = Double(position) * scale
            var end = start + scale
            if scale < 1 {
                // Enlarging: a window one source pixel wide, centred on the output pixel, blends neighbours.
                let centre = (Double(position) + 0.5) * scale
                start = max(0, centre - 0.5)
                end = min(Double(source), centre + 0.5)
            }
            var taps: [Tap] = []
            var total = 0.0
            var index = Int(start)
            while Double(index) < end && index < source {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-9 {
                    taps.append(Tap(index: index, weight: Float(covered)))
                    total += covered
                }
                index += 1
            }
            if taps.isEmpty { return [Tap(index: min(source - 1, Int(start)), weight: 1)] }
            return taps.map { Tap(index: $0.index, weight: $0.weight / Float(total)) }
        }
    }

    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
