/// Separable resampling in premultiplied alpha, so transparent pixels lend no colour to their neighbours.
///
/// Large reductions first average whole blocks of pixels (area averaging, exact and cheap), then run the filter
/// over a span at most about three times the output, which keeps the filter short without aliasing.
extension Raster {
    /// Resamples the source rectangle (`x`, `y`, `width`, `height`, in possibly fractional pixels) to
    /// `outputWidth` × `outputHeight` with `filter`.
    func resampled(
        sourceRect: (x: Double, y: Double, width: Double, height: Double), outputWidth: Int, outputHeight: Int,
        filter: ResizeFilter
    ) throws -> Raster {
        let blockX = Self.blockFactor(sourceRect.width / Double(outputWidth), filter)
        let blockY = Self.blockFactor(sourceRect.height / Double(outputHeight), filter)
        let reducedWidth = (width + blockX - 1) / blockX
        let reducedHeight = (height + blockY - 1) / blockY
        let horizontal = ResampleWeights(
            sourceSize: reducedWidth, origin: sourceRect.x / Double(blockX), length: sourceRect.width / Double(blockX),
            outputSize: outputWidth, filter: filter)
        let vertical = ResampleWeights(
            sourceSize: reducedHeight, origin: sourceRect.y / Double(blockY),
            length: sourceRect.height / Double(blockY), outputSize: outputHeight, filter: filter)
        // Only the rows some output row reads are resampled horizontally.
        let firstRow = vertical.starts.min() ?? 0
        let lastRow = zip(vertical.starts, vertical.counts).map { $0 + $1 }.max() ?? 0
        let rows = max(0, lastRow - firstRow)
        let intermediate = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, rows * outputWidth * 4))
        defer { intermediate.deallocate() }
        let rowBuffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: reducedWidth * 4)
        defer { rowBuffer.deallocate() }

        for row in 0..<rows {
            loadPremultipliedRow(firstRow + row, blockX: blockX, blockY: blockY, into: rowBuffer)
            let out = intermediate.baseAddress! + row * outputWidth * 4
            horizontal.apply(to: UnsafePointer(rowBuffer.baseAddress!), channels: 4, output: out, outputStride: 4)
        }

        return try Raster(width: outputWidth, height: outputHeight) { target in
            let bytes = target.bindMemory(to: UInt8.self).baseAddress!
            let column = UnsafeMutableBufferPointer<Float>.allocate(capacity: rows * 4)
            defer { column.deallocate() }
            let result = UnsafeMutableBufferPointer<Float>.allocate(capacity: outputHeight * 4)
            defer { result.deallocate() }
            for x in 0..<outputWidth {
                // Gather the column so the vertical taps read contiguous memory.
                for row in 0..<rows {
                    let from = intermediate.baseAddress! + (row * outputWidth + x) * 4
                    (column.baseAddress! + row * 4).update(from: from, count: 4)
                }
                vertical.apply(
                    to: UnsafePointer(column.baseAddress!), offset: firstRow, channels: 4,
                    output: result.baseAddress!, outputStride: 4)
                for y in 0..<outputHeight {
                    Self.storeUnpremultiplied(result.baseAddress! + y * 4, to: bytes + (y * outputWidth + x) * 4)
                }
            }
        }
    }

    /// How many source pixels to average into one before filtering a reduction of `scale` (1 = none).
    private static func blockFactor(_ scale: Double, _ filter: ResizeFilter) -> Int {
        // Leaves the filter a reduction between 1.5 and 3, where it is short and still alias-free.
        guard scale >= 3 else { return 1 }
        return Int(scale / 1.5)
    }

    /// Row `row` of the image reduced by `blockX` × `blockY` block averages, premultiplied, as floats 0...255.
    private func loadPremultipliedRow(
        _ row: Int, blockX: Int, blockY: Int, into buffer: UnsafeMutableBufferPointer<Float>
    ) {
        buffer.update(repeating: 0)
        let firstY = row * blockY
        let lastY = min(height, firstY + blockY)
        withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt8.self).baseAddress!
            let out = buffer.baseAddress!
            for y in firstY..<lastY {
                var pixel = source + y * bytesPerRow
                var x = 0
                var block = 0
                while x < width {
                    let end = min(width, x + blockX)
                    var r: Float = 0
                    var g: Float = 0
                    var b: Float = 0
                    var a: Float = 0
                    while x < end {
                        let alpha = Float(pixel[3])
                        r += Float(pixel[0]) * alpha
                        g += Float(pixel[1]) * alpha
                        b += Float(pixel[2]) * alpha
                        a += alpha
                        pixel += 4
                        x += 1
                    }
                    out[block * 4] += r
                    out[block * 4 + 1] += g
                    out[block * 4 + 2] += b
                    out[block * 4 + 3] += a
                    block += 1
                }
            }
            let rowCount = Float(lastY - firstY)
            for block in 0..<buffer.count / 4 {
                let columns = Float(min(width, (block + 1) * blockX) - block * blockX)
                let average = 1 / (rowCount * columns)
                out[block * 4] *= average / 255
                out[block * 4 + 1] *= average / 255
                out[block * 4 + 2] *= average / 255
                out[block * 4 + 3] *= average
            }
        }
    }

    /// Writes a premultiplied float pixel as straight-alpha bytes; cubic overshoot is clamped.
    private static func storeUnpremultiplied(_ pixel: UnsafePointer<Float>, to target: UnsafeMutablePointer<UInt8>) {
        let alpha = min(max(pixel[3], 0), 255)
        if alpha < 0.5 {
            target.update(repeating: 0, count: 4)
            return
        }
        let unpremultiply = 255 / alpha
        target[0] = clampByte(pixel[0] * unpremultiply)
        target[1] = clampByte(pixel[1] * unpremultiply)
        target[2] = clampByte(pixel[2] * unpremultiply)
        target[3] = clampByte(alpha)
    }

    private static func clampByte(_ value: Float) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}

extension ResampleWeights {
    /// Applies the weights along one axis: `input` holds source pixels of `channels` floats each, starting at
    /// source index `offset`; output pixel `i` goes to `output + i * outputStride`.
    func apply(
        to input: UnsafePointer<Float>, offset: Int = 0, channels: Int, output: UnsafeMutablePointer<Float>,
        outputStride: Int
    ) {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in
                    for index in 0..<starts.count {
                        var source = input + (starts[index] - offset) * 4
                        var weight = weights.baseAddress! + index * stride
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        for _ in 0..<counts[index] {
                            let w = weight.pointee
                            r += source[0] * w
                            g += source[1] * w
                            b += source[2] * w
                            a += source[3] * w
                            source += 4
                            weight += 1
                        }
                        let out = output + index * outputStride
                        out[0] = r
                        out[1] = g
                        out[2] = b
                        out[3] = a
                    }
                }
            }
        }
    }
}
