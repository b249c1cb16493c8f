/// Gaussian blur approximated by three passes of an "extended" box blur (Gwosdek et al., *Theoretical Foundations
/// of Gaussian Convolution by Extended Box Filtering*, 2011): a box of a fractional radius, whose two outermost
/// taps get the fraction, in 24-bit fixed point, the way Pillow's `GaussianBlur` computes it. Its cost does not
/// depend on sigma: a running sum along each row, then along each column (columns are blurred in strips of 16
/// gathered into a small buffer, so the passes read memory in order). Images with alpha are blurred premultiplied.
///
/// Memory: the output raster, two rows and two 16-column strips; nothing the size of the image besides the output.
extension Raster {
    /// The radius and fixed-point weights of one box pass for a Gaussian of `sigma` over `passes` passes.
    struct BoxKernel {
        let radius: Int
        let weight: UInt32
        let edgeWeight: UInt32

        init(sigma: Double, passes: Int = 3) {
            // Float arithmetic, as Pillow does, so the weights are the same.
            let variance = Float(sigma) * Float(sigma) / Float(passes)
            let length = (12 * variance + 1).squareRoot()
            let whole = ((length - 1) / 2).rounded(.down)
            var fraction = (2 * whole + 1) * (whole * (whole + 1) - 3 * variance)
            fraction /= 6 * (variance - (whole + 1) * (whole + 1))
            let floatRadius = whole + fraction
            radius = Int(floatRadius)
            weight = UInt32(Float(1 << 24) / (floatRadius * 2 + 1))
            edgeWeight = (UInt32(1 << 24) - UInt32(radius * 2 + 1) * weight) / 2
        }

        /// Blurs `count` RGBA pixels from `input` into `output` (which must not overlap), edges extended.
        func blur(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, count: Int) {
            let source = UnsafeRawPointer(input)
            let target = UnsafeMutableRawPointer(output)
            let last = count - 1
            let radius = self.radius
            @inline(__always) func load(_ index: Int) -> SIMD4<UInt32> {
                SIMD4<UInt32>(
                    truncatingIfNeeded: source.loadUnaligned(fromByteOffset: index &* 4, as: SIMD4<UInt8>.self))
            }
            let weight = SIMD4<UInt32>(repeating: self.weight)
            let edgeWeight = SIMD4<UInt32>(repeating: self.edgeWeight)
            let half = SIMD4<UInt32>(repeating: 1 << 23)
            @inline(__always) func store(_ x: Int, _ sum: SIMD4<UInt32>, _ far: SIMD4<UInt32>) {
                let value = (sum &* weight &+ far &* edgeWeight &+ half) &>> 24
                target.storeBytes(
                    of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
            }
            // The box [x - radius, x + radius], indices clamped to the line.
            var sum = load(0) &* UInt32(radius + 1)
            if radius > 0 {
                for k in 1...radius { sum &+= load(min(k, last)) }
            }
            // Near the edges indices are clamped; in the middle (every index inside) they are not.
            let middle = (radius + 1)..<max(radius + 1, count - radius - 1)
            var x = 0
            while x < count {
                if x == middle.lowerBound && !middle.isEmpty {
                    for m in middle {
                        let ahead = load(m &+ radius &+ 1)
                        store(m, sum, load(m &- radius &- 1) &+ ahead)
                        sum = sum &+ ahead &- load(m &- radius)
                    }
                    x = middle.upperBound
                    continue
                }
                let ahead = load(min(x + radius + 1, last))
                store(x, sum, load(max(x - radius - 1, 0)) &+ ahead)
                sum = sum &+ ahead &- load(max(x - radius, 0))
                x += 1
            }
        }

        /// Three passes over a line, ping-ponging between `line` and `scratch`; the result ends in `output`.
        func blurThrice(
            _ line: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
            output: UnsafeMutablePointer<UInt8>, count: Int
        ) {
            blur(line, scratch, count: count)
            blur(scratch, line, count: count)
            blur(line, output, count: count)
        }
    }

    /// The raster blurred by a Gaussian of `sigma` (three extended box passes each way), premultiplied when
    /// `premultiply`; `finish` may then rewrite each blurred row (straight alpha) given the source row.
    func boxBlurred(
        sigma: Double, premultiply: Bool,
        finish: ((_ blurred: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, _ count: Int) -> Void)? = nil
    ) throws -> Raster {
        let kernel = BoxKernel(sigma: sigma)
        let (width, height) = (self.width, self.height)
        return try withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt8.self).baseAddress!
            return try Raster(width: width, height: height) { target in
                let out = target.bindMemory(to: UInt8.self).baseAddress!
                let longest = max(width, height)
                let line = UnsafeMutablePointer<UInt8>.allocate(capacity: longest * 4)
                defer { line.deallocate() }
                let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: longest * 4)
                defer { scratch.deallocate() }
                // Rows.
                for y in 0..<height {
                    let row = source + y * bytesPerRow
                    if premultiply {
                        Self.premultiply(row, into: line, count: width)
                    } else {
                        line.update(from: row, count: width * 4)
                    }
                    kernel.blurThrice(line, scratch: scratch, output: out + y * width * 4, count: width)
                }
                // Columns, 16 at a time, each gathered into a contiguous line of the strip.
                let stripWidth = 16
                let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: stripWidth * height * 4)
                defer { strip.deallocate() }
                let stripOut = UnsafeMutablePointer<UInt8>.allocate(capacity: stripWidth * height * 4)
                defer { stripOut.deallocate() }
                let words = UnsafeMutableRawPointer(out)
                for left in stride(from: 0, to: width, by: stripWidth) {
                    let columns = min(stripWidth, width - left)
                    for y in 0..<height {
                        for c in 0..<columns {
                            let word = words.load(fromByteOffset: (y * width + left + c) * 4, as: UInt32.self)
                            UnsafeMutableRawPointer(strip).storeBytes(
                                of: word, toByteOffset: (c * height + y) * 4, as: UInt32.self)
                        }
                    }
                    for c in 0..<columns {
                        let column = strip + c * height * 4
                        kernel.blurThrice(column, scratch: line, output: stripOut + c * height * 4, count: height)
                    }
                    for y in 0..<height {
                        for c in 0..<columns {
                            let word = UnsafeRawPointer(stripOut).load(
                                fromByteOffset: (c * height + y) * 4, as: UInt32.self)
                            words.storeBytes(of: word, toByteOffset: (y * width + left + c) * 4, as: UInt32.self)
                        }
                    }
                }
                for y in 0..<height {
                    let row = out + y * width * 4
                    if premultiply { Self.unpremultiply(row, count: width) }
                    finish?(row, source + y * bytesPerRow, width)
                }
            }
        }
    }

    /// Premultiplies a row as Pillow's RGBA → RGBa does: c · a / 255, rounded.
    private static func premultiply(_ row: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, count: Int) {
        for x in 0..<count {
            let p = row + x * 4
            let alpha = UInt32(p[3])
            for channel in 0..<3 {
                let product = UInt32(p[channel]) * alpha + 128
                line[x * 4 + channel] = UInt8((product + (product >> 8)) >> 8)
            }
            line[x * 4 + 3] = p[3]
        }
    }

    /// Back to straight alpha, as Pillow's RGBa → RGBA does: c · 255 / a, truncated (a of 0 or 255 unchanged).
    private static func unpremultiply(_ row: UnsafeMutablePointer<UInt8>, count: Int) {
        for x in 0..<count {
            let p = row + x * 4
            let alpha = UInt32(p[3])
            guard alpha != 0, alpha != 255 else { continue }
            for channel in 0..<3 { p[channel] = UInt8(min(255, UInt32(p[channel]) * 255 / alpha)) }
        }
    }
}
