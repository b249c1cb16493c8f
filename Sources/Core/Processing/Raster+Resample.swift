/// Separable resampling, one `SIMD4<Float>` per pixel, in premultiplied alpha when the image has any (so transparent
/// pixels lend no colour to their neighbours); an opaque image skips the premultiplication, which changes nothing
/// there.
///
/// Large reductions first average whole blocks of pixels (area averaging, exact and cheap), then run the filter
/// over a span at most about three times the output (two to four for Lanczos3), which keeps the filter short
/// without aliasing. Output rows are made one at a time: the source rows an output row reads are resampled
/// horizontally (each once, into a small ring that stays in the cache), then summed vertically; both passes read
/// memory in order.
extension Raster {
    /// Resamples the source rectangle (`x`, `y`, `width`, `height`, in possibly fractional pixels) to
    /// `outputWidth` × `outputHeight` with `filter`; `premultiply` is false only when every pixel is opaque.
    func resampled(
        sourceRect: (x: Double, y: Double, width: Double, height: Double), outputWidth: Int, outputHeight: Int,
        filter: ResizeFilter, premultiply: Bool = true
    ) throws -> Raster {
        var sourceRect = sourceRect
        if let extent {
            // The rectangle is in the pixel grid's units; the picture covers `extent` of it.
            let (sx, sy) = (extent.width / Double(width), extent.height / Double(height))
            sourceRect = (sourceRect.x * sx, sourceRect.y * sy, sourceRect.width * sx, sourceRect.height * sy)
        }
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
        // Each output row reads `taps` consecutive source rows, resampled horizontally into a ring of that many
        // rows: only rows some output row reads are resampled, each once, and the ring stays in the cache.
        let taps = vertical.taps
        let ring = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: taps * outputWidth)
        defer { ring.deallocate() }
        var ringHolds = [Int](repeating: -1, count: taps)
        let rows = UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>.allocate(capacity: taps)
        defer { rows.deallocate() }
        let rowBuffer = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: reducedWidth)
        defer { rowBuffer.deallocate() }
        let accumulator = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outputWidth)
        defer { accumulator.deallocate() }
        let loader = RowLoader(blockX: blockX, blockY: blockY, premultiply: premultiply)

        return try Raster(width: outputWidth, height: outputHeight) { target in
            let bytes = target.bindMemory(to: UInt8.self).baseAddress!
            withUnsafeBytes { raw in
                let source = raw.bindMemory(to: UInt8.self).baseAddress!
                for y in 0..<outputHeight {
                    let start = vertical.starts[y]
                    for tap in 0..<taps {
                        // Consecutive rows fall in different slots.
                        let (row, slot) = (start + tap, (start + tap) % taps)
                        let line = ring + slot * outputWidth
                        if ringHolds[slot] != row {
                            loader.load(row: row, of: self, source: source, into: rowBuffer)
                            horizontal.applyToRow(rowBuffer, output: line)
                            ringHolds[slot] = row
                        }
                        rows[tap] = UnsafePointer(line)
                    }
                    vertical.sumRows(for: y, rows: rows, width: outputWidth, into: accumulator)
                    let out = bytes + y * outputWidth * 4
                    if premultiply {
                        for x in 0..<outputWidth { Self.storeUnpremultiplied(accumulator[x], to: out + x * 4) }
                    } else {
                        for x in 0..<outputWidth { Self.store(accumulator[x], to: out + x * 4) }
                    }
                }
            }
        }
    }

    /// How many source pixels to average into one before filtering a reduction of `scale` (1 = none).
    private static func blockFactor(_ scale: Double, _ filter: ResizeFilter) -> Int {
        switch filter {
        case .lanczos3:
            // Leaves Lanczos a reduction of at least 2 (2 to 4), as libvips does: box-averaging closer to the
            // output size softens it measurably.
            return max(1, Int(scale / 2))
        default:
            // Leaves the filter a reduction between 1.5 and 3, where it is short and still alias-free.
            guard scale >= 3 else { return 1 }
            return Int(scale / 1.5)
        }
    }

    /// Writes an opaque float pixel as bytes, alpha 255; cubic overshoot is clamped. (`clamped(lowerBound:…)`
    /// checks its bounds on every call and costs more than the rest of the store.)
    @inline(__always)
    private static func store(_ pixel: SIMD4<Float>, to target: UnsafeMutablePointer<UInt8>) {
        var opaque = pixel
        opaque[3] = 255
        storeClamped(opaque, to: target)
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
        storeClamped(straight, to: target)
    }

    @inline(__always)
    private static func storeClamped(_ pixel: SIMD4<Float>, to target: UnsafeMutablePointer<UInt8>) {
        let clamped = pointwiseMin(pointwiseMax(pixel, SIMD4(repeating: 0)), SIMD4(repeating: 255))
        UnsafeMutableRawPointer(target).storeBytes(of: PixelBits.pack(clamped), as: SIMD4<UInt8>.self)
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
            // One loop per case, so the loop over the row has no branch in it.
            let pixels = UnsafeRawPointer(source + firstY * raster.bytesPerRow)
            if premultiply {
                for x in 0..<width {
                    out[x] = Self.premultiplied(pixels.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self))
                }
            } else {
                PixelBits.unpackOpaqueRow(pixels, count: width, into: out)
            }
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
        let word = UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self)
        return premultiply ? Self.premultiplied(word) : PixelBits.unpackOpaque(word)
    }

    @inline(__always)
    private static func premultiplied(_ word: UInt32) -> SIMD4<Float> {
        let value = PixelBits.unpack(word)
        var premultiplied = value * (value[3] / 255)
        premultiplied[3] = value[3]
        return premultiplied
    }
}

/// Byte ⇄ float conversion of whole pixels with vector integer operations and the 2²³ trick (a float of 2²³ + n
/// holds n in its low mantissa bits).
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

    /// Red, green and blue of four bytes (little-endian RGBA) as floats 0...255, alpha as 0: masks and a multiply,
    /// since SSE2 has no per-lane shift.
    @inline(__always)
    static func unpackOpaque(_ word: UInt32) -> SIMD4<Float> {
        unpackOpaque(word, masks: opaqueMasks, scales: opaqueScales)
    }

    /// A row of `count` opaque pixels as floats (alpha 0). Not inlined: in a larger function the loop loses its
    /// registers and runs several times slower.
    static func unpackOpaqueRow(
        _ pixels: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        unpackOpaqueRow(pixels, count: count, into: out, masks: opaqueMasks, scales: opaqueScales)
    }

    /// The masks and scales come in as arguments: given constants, the compiler converts the first lane apart,
    /// with scalar instructions, which makes the loop twice as slow.
    @inline(never)
    private static func unpackOpaqueRow(
        _ pixels: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<SIMD4<Float>>, masks: SIMD4<Int32>,
        scales: SIMD4<Float>
    ) {
        for x in 0..<count {
            out[x] = unpackOpaque(
                pixels.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self), masks: masks, scales: scales)
        }
    }

    @inline(__always)
    private static func unpackOpaque(_ word: UInt32, masks: SIMD4<Int32>, scales: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4<Float>(SIMD4<Int32>(repeating: Int32(bitPattern: UInt32(littleEndian: word))) & masks) * scales
    }

    // Computed, not stored: static stored properties are lazy globals, checked on every access.
    @inline(__always) private static var opaqueMasks: SIMD4<Int32> { SIMD4(0xFF, 0xFF00, 0xFF_0000, 0) }
    @inline(__always) private static var opaqueScales: SIMD4<Float> { SIMD4(1, 1.0 / 256, 1.0 / 65536, 0) }

    /// Floats already clamped to 0...255 as four bytes (RGBA in memory order), rounded to nearest.
    @inline(__always)
    static func pack(_ pixel: SIMD4<Float>) -> SIMD4<UInt8> {
        let lanes = unsafeBitCast(pixel + magic, to: SIMD4<Int32>.self) & 0xFF
        return SIMD4<UInt8>(truncatingIfNeeded: lanes)
    }
}

extension ResampleWeights {
    /// Resamples one row of source pixels into `output` (one pixel per output index).
    func applyToRow(_ input: UnsafePointer<SIMD4<Float>>, output: UnsafeMutablePointer<SIMD4<Float>>) {
        // The usual tap counts get a loop the compiler unrolls whole (a constant count once inlined); 9 to 13 are
        // Catmull-Rom's reductions between 2x and 3x, the serve path's (a 1/2 DCT decode shrunk about 2x more).
        switch taps {
        case 4: applyToRow(input, output: output, taps: 4)
        case 5: applyToRow(input, output: output, taps: 5)
        case 6: applyToRow(input, output: output, taps: 6)
        case 7: applyToRow(input, output: output, taps: 7)
        case 8: applyToRow(input, output: output, taps: 8)
        case 9: applyToRow(input, output: output, taps: 9)
        case 10: applyToRow(input, output: output, taps: 10)
        case 11: applyToRow(input, output: output, taps: 11)
        case 12: applyToRow(input, output: output, taps: 12)
        case 13: applyToRow(input, output: output, taps: 13)
        default: applyToRow(input, output: output, taps: taps)
        }
    }

    @inline(__always)
    private func applyToRow(
        _ input: UnsafePointer<SIMD4<Float>>, output: UnsafeMutablePointer<SIMD4<Float>>, taps: Int
    ) {
        starts.withUnsafeBufferPointer { starts in
            lanes.withUnsafeBufferPointer { lanes in
                var weight = lanes.baseAddress!
                for index in 0..<starts.count {
                    let source = input + starts[index]
                    // Two sums, so consecutive taps do not wait on each other's addition.
                    var even = SIMD4<Float>(repeating: 0)
                    var odd = SIMD4<Float>(repeating: 0)
                    var tap = 0
                    while tap + 2 <= taps {
                        even += source[tap] * weight[tap]
                        odd += source[tap + 1] * weight[tap + 1]
                        tap += 2
                    }
                    if tap < taps { even += source[tap] * weight[tap] }
                    output[index] = even + odd
                    weight += taps
                }
            }
        }
    }

    /// Sums, for output row `index`, the weighted rows it reads (`rows[tap]` is the horizontally resampled source
    /// row `starts[index] + tap`, `width` pixels long) into `output`.
    func sumRows(
        for index: Int, rows: UnsafePointer<UnsafePointer<SIMD4<Float>>>, width: Int,
        into output: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        let count = taps
        weights.withUnsafeBufferPointer { weights in
            let weight = weights.baseAddress! + index * count
            // Four taps at a time in registers, so the accumulator row is read and written once per four.
            var tap = 0
            while tap + 4 <= count {
                let (r0, r1, r2, r3) = (rows[tap], rows[tap + 1], rows[tap + 2], rows[tap + 3])
                let (w0, w1, w2, w3) = (weight[tap], weight[tap + 1], weight[tap + 2], weight[tap + 3])
                if tap == 0 {
                    for x in 0..<width { output[x] = r0[x] * w0 + r1[x] * w1 + r2[x] * w2 + r3[x] * w3 }
                } else {
                    for x in 0..<width { output[x] += r0[x] * w0 + r1[x] * w1 + r2[x] * w2 + r3[x] * w3 }
                }
                tap += 4
            }
            while tap < count {
                let row = rows[tap]
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
