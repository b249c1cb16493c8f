import Foundation

/// The computation behind `DSSIM`, one row at a time: each row's luma (centred on 128, so the second moments stay
/// small enough for `Float`), its five quantities (a, b, a², b², ab) filtered along the row into a ring of 11
/// filtered rows, and, once the ring is full, the column filter of the ring and the SSIM of each window, summed.
/// The Gaussian is symmetric, so each output takes six multiplications instead of eleven; the loops have no
/// branches and run over contiguous `Float` rows, which the compiler vectorises.
enum SSIMWindow {
    /// The quantities filtered: a, b, a², b², ab.
    private static let quantities = 5
    private static let span = DSSIM.windowSize
    /// Luma is centred on this before its moments are taken (variance and covariance do not change).
    private static let centre: Float = 128
    private static let c1 = Float((0.01 * 255.0) * (0.01 * 255.0))
    private static let c2 = Float((0.03 * 255.0) * (0.03 * 255.0))

    /// The normalised Gaussian's weights from the window's edge to its centre (the other half mirrors them).
    private static let weights: [Float] = {
        let radius = Double(span / 2)
        let raw = (0..<span).map {
            exp(-(Double($0) - radius) * (Double($0) - radius) / (2 * DSSIM.sigma * DSSIM.sigma))
        }
        let total = raw.reduce(0, +)
        return raw.prefix(span / 2 + 1).map { Float($0 / total) }
    }()

    /// The mean SSIM of two rasters of the same size, at least 11×11 (checked by the caller).
    static func meanSSIM(_ a: Raster, _ b: Raster) -> Double {
        let width = a.width
        let outputWidth = width - span + 1
        let outputHeight = a.height - span + 1
        let products = UnsafeMutablePointer<Float>.allocate(capacity: quantities * width)
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: span * quantities * outputWidth)
        let filtered = UnsafeMutablePointer<Float>.allocate(capacity: (quantities + 1) * outputWidth)
        defer {
            products.deallocate()
            ring.deallocate()
            filtered.deallocate()
        }
        let slotSize = quantities * outputWidth
        var total = 0.0
        a.withUnsafeBytes { pixelsA in
            b.withUnsafeBytes { pixelsB in
                for y in 0..<a.height {
                    let lumaA = products
                    let lumaB = products + width
                    luma(of: pixelsA.baseAddress! + y * a.bytesPerRow, into: lumaA, count: width)
                    luma(of: pixelsB.baseAddress! + y * b.bytesPerRow, into: lumaB, count: width)
                    moments(lumaA, lumaB, into: products + 2 * width, count: width)
                    let slot = ring + (y % span) * slotSize
                    for quantity in 0..<quantities {
                        filterRow(products + quantity * width, into: slot + quantity * outputWidth, count: outputWidth)
                    }
                    guard y >= span - 1 else { continue }
                    // The ring's oldest row (y − 10) is in the slot after this one.
                    let oldest = (y + 1) % span
                    for quantity in 0..<quantities {
                        filterColumns(
                            ring + quantity * outputWidth, slotSize: slotSize, oldest: oldest,
                            into: filtered + quantity * outputWidth, count: outputWidth)
                    }
                    let map = filtered + quantities * outputWidth
                    ssimRow(filtered, into: map, count: outputWidth)
                    total += sum(map, count: outputWidth)
                }
            }
        }
        return total / Double(outputWidth * outputHeight)
    }

    /// BT.601 luma of `count` RGBA pixels over white, minus `centre`: with weights that sum to 1, compositing over
    /// white is 255 + α (Y − 255).
    private static func luma(of pixels: UnsafeRawPointer, into output: UnsafeMutablePointer<Float>, count: Int) {
        let bytes = pixels.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let r = Float(bytes[4 * x]), g = Float(bytes[4 * x + 1]), b = Float(bytes[4 * x + 2])
            let alpha = Float(bytes[4 * x + 3]) * (1 / 255)
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            output[x] = (255 - centre) + alpha * (y - 255)
        }
    }

    /// a², b² and ab after the two luma rows (the products row holds a, b, a², b², ab, `count` each).
    private static func moments(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int
    ) {
        for x in 0..<count {
            let va = a[x], vb = b[x]
            output[x] = va * va
            output[count + x] = vb * vb
            output[2 * count + x] = va * vb
        }
    }

    /// The Gaussian along a row, 'valid' region: `count` outputs from `count + 10` inputs.
    private static func filterRow(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int) {
        let (g0, g1, g2, g3, g4, g5) = (weights[0], weights[1], weights[2], weights[3], weights[4], weights[5])
        for x in 0..<count {
            let s = input + x
            var value = g5 * s[5]
            value += g0 * (s[0] + s[10]) + g1 * (s[1] + s[9]) + g2 * (s[2] + s[8])
            value += g3 * (s[3] + s[7]) + g4 * (s[4] + s[6])
            output[x] = value
        }
    }

    /// The Gaussian down the ring's 11 rows of one quantity (`base` is that quantity in slot 0; slots are
    /// `slotSize` apart, the oldest row in slot `oldest`).
    private static func filterColumns(
        _ base: UnsafePointer<Float>, slotSize: Int, oldest: Int, into output: UnsafeMutablePointer<Float>,
        count: Int
    ) {
        let row = { (k: Int) in base + ((oldest + k) % span) * slotSize }
        let (r0, r1, r2, r3, r4, r5) = (row(0), row(1), row(2), row(3), row(4), row(5))
        let (r6, r7, r8, r9, r10) = (row(6), row(7), row(8), row(9), row(10))
        let (g0, g1, g2, g3, g4, g5) = (weights[0], weights[1], weights[2], weights[3], weights[4], weights[5])
        for x in 0..<count {
            var value = g5 * r5[x]
            value += g0 * (r0[x] + r10[x]) + g1 * (r1[x] + r9[x]) + g2 * (r2[x] + r8[x])
            value += g3 * (r3[x] + r7[x]) + g4 * (r4[x] + r6[x])
            output[x] = value
        }
    }

    /// Each window's SSIM from its filtered a, b, a², b², ab (`count` each, in that order).
    private static func ssimRow(_ filtered: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int)
    {
        let (meansA, meansB) = (filtered, filtered + count)
        let (squaresA, squaresB, crosses) = (filtered + 2 * count, filtered + 3 * count, filtered + 4 * count)
        for x in 0..<count {
            let ma = meansA[x], mb = meansB[x]
            let varianceA = squaresA[x] - ma * ma
            let varianceB = squaresB[x] - mb * mb
            let covariance = crosses[x] - ma * mb
            let muA = ma + centre, muB = mb + centre
            let numerator = (2 * muA * muB + c1) * (2 * covariance + c2)
            let denominator = (muA * muA + muB * muB + c1) * (varianceA + varianceB + c2)
            output[x] = numerator / denominator
        }
    }

    /// The sum of `count` values, in eight lanes (faster than one chain of additions, and closer).
    private static func sum(_ values: UnsafePointer<Float>, count: Int) -> Double {
        var lanes = SIMD8<Float>()
        var x = 0
        let raw = UnsafeRawPointer(values)
        while x + 8 <= count {
            lanes += raw.loadUnaligned(fromByteOffset: x * 4, as: SIMD8<Float>.self)
            x += 8
        }
        var total = Double(lanes.sum())
        while x < count {
            total += Double(values[x])
            x += 1
        }
        return total
    }
}
