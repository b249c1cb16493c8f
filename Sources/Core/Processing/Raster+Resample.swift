/// Separable resampling in premultiplied alpha, so transparent pixels lend no colour to their neighbours.
extension Raster {
    /// Resamples the source rectangle (`x`, `y`, `width`, `height`, in possibly fractional pixels) to
    /// `outputWidth` × `outputHeight` with `filter`.
    func resampled(
        sourceRect: (x: Double, y: Double, width: Double, height: Double), outputWidth: Int, outputHeight: Int,
        filter: ResizeFilter
    ) throws -> Raster {
        let horizontal = ResampleWeights(
            sourceSize: width, origin: sourceRect.x, length: sourceRect.width, outputSize: outputWidth, filter: filter)
        let vertical = ResampleWeights(
            sourceSize: height, origin: sourceRect.y, length: sourceRect.height, outputSize: outputHeight,
            filter: filter)
        // Only the source rows some output row reads are resampled horizontally.
        let firstRow = vertical.starts.first ?? 0
        let lastRow = zip(vertical.starts, vertical.counts).map { $0 + $1 }.max() ?? 0
        let rows = max(0, lastRow - firstRow)
        let intermediate = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, rows * outputWidth * 4))
        defer { intermediate.deallocate() }

        withUnsafeBytes { source in
            horizontal.weights.withUnsafeBufferPointer { weights in
                for row in 0..<rows {
                    let sourceRow = (firstRow + row) * bytesPerRow
                    let out = row * outputWidth * 4
                    for column in 0..<outputWidth {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        let start = horizontal.starts[column]
                        let base = column * horizontal.stride
                        for tap in 0..<horizontal.counts[column] {
                            let offset = sourceRow + (start + tap) * 4
                            let alpha = Float(source[offset + 3])
                            let weight = weights[base + tap]
                            // Premultiply on the fly: colour weighted by coverage.
                            let alphaWeight = weight * alpha * (1 / 255)
                            r += Float(source[offset]) * alphaWeight
                            g += Float(source[offset + 1]) * alphaWeight
                            b += Float(source[offset + 2]) * alphaWeight
                            a += alpha * weight
                        }
                        intermediate[out + column * 4] = r
                        intermediate[out + column * 4 + 1] = g
                        intermediate[out + column * 4 + 2] = b
                        intermediate[out + column * 4 + 3] = a
                    }
                }
            }
        }

        return try Raster(width: outputWidth, height: outputHeight) { target in
            vertical.weights.withUnsafeBufferPointer { weights in
                for row in 0..<outputHeight {
                    let start = vertical.starts[row] - firstRow
                    let base = row * vertical.stride
                    for column in 0..<outputWidth {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        for tap in 0..<vertical.counts[row] {
                            let offset = ((start + tap) * outputWidth + column) * 4
                            let weight = weights[base + tap]
                            r += intermediate[offset] * weight
                            g += intermediate[offset + 1] * weight
                            b += intermediate[offset + 2] * weight
                            a += intermediate[offset + 3] * weight
                        }
                        let out = (row * outputWidth + column) * 4
                        let alpha = min(max(a, 0), 255)
                        if alpha < 0.5 {
                            target.storeBytes(of: 0, toByteOffset: out, as: UInt32.self)
                            continue
                        }
                        // Back to straight alpha; cubic overshoot is clamped to the valid range.
                        let unpremultiply = 255 / alpha
                        target[out] = Self.clampByte(r * unpremultiply)
                        target[out + 1] = Self.clampByte(g * unpremultiply)
                        target[out + 2] = Self.clampByte(b * unpremultiply)
                        target[out + 3] = Self.clampByte(alpha)
                    }
                }
            }
        }
    }

    private static func clampByte(_ value: Float) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}
