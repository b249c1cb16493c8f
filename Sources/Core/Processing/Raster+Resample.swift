/// Separable resampling, one `SIMD4<Float>` per pixel, in premultiplied alpha when the image has any (so transparent
/// pixels lend no colour to their neighbours); an opaque image skips the premultiplication, which changes nothing
/// there.
///
/// Large reductions first average whole blocks of pixels (area averaging, exact and cheap), then run the filter
/// over a span at most about three times the output, which keeps the filter short without aliasing. The horizontal
/// pass runs over each source row a vertical tap reads; the vertical pass then sums whole intermediate rows, so both
/// passes read memory in order.
extension Raster {
    /// Resamples the source rectangle (`x`, `y`, `width`, `height`, in possibly fractional pixels) to
    /// `outputWidth` × `outputHeight` with `filter`; `premultiply` is false only when every pixel is opaque.
    func resampled(
        sourceRect: (x: Double, y: Double, width: Double, height: Double), outputWidth: Int, outputHeight: Int,
        filter: ResizeFilter, premultiply: Bool = true
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
        let intermediate = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, rows * outputWidth))
        defer { intermediate.deallocate() }
        let rowBuffer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: reducedWidth)
        defer { rowBuffer.deallocate() }

        let loader = RowLoader(blockX: blockX, blockY: blockY, premultiply: premultiply)
        withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt8.self).baseAddress!
            for row in 0..<rows {
                loader.load(row: firstRow + row, of: self, source: source, into: rowBuffer)
                horizontal.applyToRow(rowBuffer, output: intermediate + row * outputWidth)
            }
        }

        return try Raster(width: outputWidth, height: outputHeight) { target in
            let bytes = target.bindMemory(to: UInt8.self).baseAddress!
            let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outputWidth)
            defer { accumulator.deallocate() }
            for y in 0..<outputHeight {
                vertical.sumRows(
                    for: y, rows: intermediate, firstRow: firstRow, width: outputWidth, into: accumulator)
                let out = bytes + y * outputWidth * 4
                if premultiply {
                    for x in 0..<outputWidth { Self.storeUnpremultiplied(accumulator[x], to: out + x * 4) }
                } else {
                    for x in 0..<outputWidth { Self.store(accumulator[x], to: out + x * 4) }
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

    /// Writes an opaque (not premultiplied) float pixel as bytes; cubic overshoot is clamped.
    @inline(__always)
    private static func store(_ pixel: SIMD4<Float>, to target: UnsafeMutablePointer<UInt8>) {
        let clamped = pixel.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
        UnsafeMutableRawPointer(target).storeBytes(of: PixelBits.pack(clamped), as: UInt32.self)
    }

    /// Writes a premultiplied float pixel as straight-alpha bytes.
    @inline(__always)
    private static func storeUnpremultiplied(_ pixel: SIMD4<Float>, to target: UnsafeMutablePointer<UInt8>) {
        let alpha = min(max(pixel[3], 0), 255)
        if alpha < 0.5 {
            target.update(repeating: 0, count: 4)
            return
        }
        var straight = pixel * (255 / alpha)
        straight[3] = alpha
        store(straight, to: target)
    }
}

/// Reads one row of the (block-reduced) source as float pixels 0...255, premultiplied when asked.
private struct RowLoader {
    let blockX: Int
    let blockY: Int
    let premultiply: Bool

    func load(
        row: Int, of raster: Raster, source: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let width = raster.width
        let firstY = row * blockY
        let lastY = min(raster.height, firstY + blockY)
        if blockX == 1 && lastY - firstY == 1 {
            let pixels = source + firstY * raster.bytesPerRow
            for x in 0..<width { out[x] = pixel(pixels + x * 4) }
            return
        }
        let blocks = (width + blockX - 1) / blockX
        out.update(repeating: SIMD4(repeating: 0), count: blocks)
        for y in firstY..<lastY {
            let pixels = source + y * raster.bytesPerRow
            for block in 0..<blocks {
                var sum = SIMD4<Float>(repeating: 0)
                for x in (block * blockX)..<min(width, (block + 1) * blockX) { sum += pixel(pixels + x * 4) }
                out[block] += sum
            }
        }
        let rowCount = Float(lastY - firstY)
        for block in 0..<blocks {
            let columns = Float(min(width, (block + 1) * blockX) - block * blockX)
            out[block] *= 1 / (rowCount * columns)
        }
    }

    @inline(__always)
    private func pixel(_ bytes: UnsafePointer<UInt8>) -> SIMD4<Float> {
        let value = PixelBits.unpack(UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self))
        guard premultiply else { return value }
        var premultiplied = value * (value[3] / 255)
        premultiplied[3] = value[3]
        return premultiplied
    }
}

/// Byte ⇄ float conversion of whole pixels with vector integer operations and the 2²³ trick (a float of 2²³ + n
/// holds n in its low mantissa bits): the generic SIMD conversions are not specialised and cost more than the filter.
enum PixelBits {
    private static let magic = SIMD4<Float>(repeating: 8_388_608)
    private static let magicBits = SIMD4<UInt32>(repeating: 0x4B00_0000)
    private static let shifts = SIMD4<UInt32>(0, 8, 16, 24)

    /// Four bytes (little-endian RGBA) as floats 0...255.
    @inline(__always)
    static func unpack(_ word: UInt32) -> SIMD4<Float> {
        let lanes = (SIMD4<UInt32>(repeating: UInt32(littleEndian: word)) &>> shifts) & 0xFF
        return unsafeBitCast(lanes | magicBits, to: SIMD4<Float>.self) - magic
    }

    /// Floats already clamped to 0...255 as four bytes (little-endian RGBA), rounded to nearest.
    @inline(__always)
    static func pack(_ pixel: SIMD4<Float>) -> UInt32 {
        let lanes = unsafeBitCast(pixel + magic, to: SIMD4<UInt32>.self) & 0xFF
        return UInt32(littleEndian: (lanes &<< shifts).wrappedSum())
    }
}

extension ResampleWeights {
    /// Resamples one row of source pixels into `output` (one pixel per output index).
    func applyToRow(_ input: UnsafePointer<SIMD4<Float>>, output: UnsafeMutablePointer<SIMD4<Float>>) {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in
                    for index in 0..<starts.count {
                        let source = input + starts[index]
                        let weight = weights.baseAddress! + index * stride
                        var sum = SIMD4<Float>(repeating: 0)
                        for tap in 0..<counts[index] { sum += source[tap] * weight[tap] }
                        output[index] = sum
                    }
                }
            }
        }
    }

    /// Sums, for output row `index`, the weighted intermediate rows it reads (`rows` holds `width` pixels a row,
    /// starting at source row `firstRow`) into `output`.
    func sumRows(
        for index: Int, rows: UnsafePointer<SIMD4<Float>>, firstRow: Int, width: Int,
        into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let first = rows + (starts[index] - firstRow) * width
        let count = counts[index]
        weights.withUnsafeBufferPointer { weights in
            let weight = weights.baseAddress! + index * stride
            // Four taps at a time in registers, so the accumulator row is read and written once per four.
            var tap = 0
            while tap + 4 <= count {
                let (r0, r1, r2, r3) = (
                    first + tap * width, first + (tap + 1) * width, first + (tap + 2) * width,
                    first + (tap + 3) * width
                )
                let (w0, w1, w2, w3) = (weight[tap], weight[tap + 1], weight[tap + 2], weight[tap + 3])
                if tap == 0 {
                    for x in 0..<width { output[x] = r0[x] * w0 + r1[x] * w1 + r2[x] * w2 + r3[x] * w3 }
                } else {
                    for x in 0..<width { output[x] += r0[x] * w0 + r1[x] * w1 + r2[x] * w2 + r3[x] * w3 }
                }
                tap += 4
            }
            while tap < count {
                let row = first + tap * width
                let w = weight[tap]
                if tap == 0 {
                    for x in 0..<width { output[x] = row[x] * w }
                } else {
                    for x in 0..<width { output[x] += row[x] * w }
                }
                tap += 1
            }
        }
    }
}
