/// Convolves every frame with a kernel of odd width and height: thumbor's `convolution(K1;K2;…,COLUMNS,NORMALIZE)`.
/// Pixels past an edge repeat the edge; each sum is truncated towards zero and clamped, as thumbor does. With
/// `normalize` the kernel is divided by its sum (unless that is 0). Alpha is convolved too for images with alpha
/// (thumbor convolves the alpha of RGBA images), and kept for opaque ones.
public struct ConvolutionProcessor: ImageProcessor {
    /// The most entries a kernel may have (11 × 11): the work is entries × pixels.
    public static let maxEntries = 121
    /// The most multiply-adds one channel of one frame may take (pixels × kernel entries), checked before the work
    /// starts: a 3 × 3 kernel covers 100 megapixels, an 11 × 11 one about 8.
    public static let maxWork = 1_000_000_000

    /// The kernel, row by row.
    public let kernel: [Double]
    /// Entries per row.
    public let columns: Int
    /// Whether the kernel is divided by its sum.
    public let normalize: Bool

    /// Creates the processor; a kernel whose size is not a multiple of `columns`, whose width or height is even,
    /// which has more than `maxEntries` entries or an entry that is not a finite number throws `processingFailed`.
    public init(kernel: [Double], columns: Int, normalize: Bool) throws {
        guard columns > 0, !kernel.isEmpty, kernel.count % columns == 0, columns % 2 == 1,
            (kernel.count / columns) % 2 == 1
        else {
            throw ImagoError(
                .processingFailed,
                "convolution: \(kernel.count) entries in rows of \(columns) is not a kernel of odd width and height")
        }
        guard kernel.count <= Self.maxEntries, kernel.allSatisfy(\.isFinite) else {
            throw ImagoError(
                .processingFailed, "convolution: at most \(Self.maxEntries) finite entries (\(kernel.count) given)")
        }
        (self.kernel, self.columns, self.normalize) = (kernel, columns, normalize)
    }

    /// `convolution(K1;K2;…,COLUMNS,normalize|raw)`.
    public var identifier: String {
        "convolution(\(kernel.map { "\($0)" }.joined(separator: ";")),\(columns),\(normalize ? "normalize" : "raw"))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let sum = kernel.reduce(0, +)
        let weights = normalize && sum != 0 ? kernel.map { $0 / sum } : kernel
        let channels = image.hasAlpha ? 4 : 3
        try Self.checkWork(width: image.width, height: image.height, taps: kernel.count, what: identifier)
        return try image.mappingRasters {
            try Self.convolve($0, weights: weights, columns: columns, channels: channels)
        }
    }

    static func convolve(_ raster: Raster, weights: [Double], columns: Int, channels: Int) throws -> Raster {
        let (width, height) = (raster.width, raster.height)
        let (midX, midY) = (columns / 2, weights.count / columns / 2)
        return try raster.withUnsafeBytes { source in
            try Raster(width: width, height: height) { target in
                for y in 0..<height {
                    for x in 0..<width {
                        var sums = (0.0, 0.0, 0.0, 0.0)
                        var weight = 0
                        for ky in -midY...midY {
                            let row = min(max(y + ky, 0), height - 1) * raster.bytesPerRow
                            for kx in -midX...midX {
                                let offset = row + min(max(x + kx, 0), width - 1) * 4
                                let factor = weights[weight]
                                weight += 1
                                sums.0 += Double(source[offset]) * factor
                                sums.1 += Double(source[offset + 1]) * factor
                                sums.2 += Double(source[offset + 2]) * factor
                                sums.3 += Double(source[offset + 3]) * factor
                            }
                        }
                        let to = (y * width + x) * 4
                        target[to] = Self.clamped(sums.0)
                        target[to + 1] = Self.clamped(sums.1)
                        target[to + 2] = Self.clamped(sums.2)
                        target[to + 3] =
                            channels == 4 ? Self.clamped(sums.3) : source[y * raster.bytesPerRow + x * 4 + 3]
                    }
                }
            }
        }
    }

    /// Throws `limitExceeded` when `width` × `height` × `taps` is over `maxWork`.
    static func checkWork(width: Int, height: Int, taps: Int, what: String) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (work, workOverflow) = pixels.multipliedReportingOverflow(by: taps)
        guard !overflow, !workOverflow, work <= maxWork else {
            throw ImagoError(
                .limitExceeded,
                "too large: \(what) of a \(width)x\(height) image takes more than \(maxWork) operations a channel")
        }
    }

    /// Truncated towards zero, then clamped to 0…255.
    static func clamped(_ value: Double) -> UInt8 {
        guard value.isFinite else { return 0 }
        return UInt8(clamping: Int(max(-1e9, min(1e9, value)).rounded(.towardZero)))
    }
}

extension ConvolutionProcessor: FrameWiseProcessing {
    /// Always: each frame is convolved on its own.
    public var processesFramesIndependently: Bool { true }
}
