/// Draws a nine-patch image around every frame, as thumbor's `frame(URL)`: the patch's 1-pixel border says
/// which columns (top row) and rows (left column) stretch (opaque black) and, on the bottom row and right column,
/// how much room the picture leaves (the first and last opaque black pixels: left, top, right, bottom padding).
/// The picture is placed on an opaque white canvas grown by that padding, then the patch (its border cut off) is
/// drawn over the whole canvas, its fixed cells at their size and its stretchy cells stretched to share what is
/// left (bilinear, as thumbor's `_nine_patch`). The result is opaque.
public struct NinePatchFrameProcessor: ImageProcessor {
    /// The nine-patch image, its 1-pixel border included.
    public let ninePatch: Raster
    /// What the identifier calls it: the caller's id, or `xxh64:` and a hash of its pixels.
    public let ninePatchID: String
    /// Bounds on the framed image, checked before allocating. Not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// Creates a frame; a patch smaller than 3 × 3 (a border and one pixel) throws `processingFailed`. `id` names
    /// the patch in `identifier` (by default, a hash of its pixels).
    public init(ninePatch: Raster, id: String? = nil) throws {
        guard ninePatch.width >= 3, ninePatch.height >= 3 else {
            throw ImagoError(
                .processingFailed,
                "a nine-patch needs a border around its pixels: \(ninePatch.width)x\(ninePatch.height)")
        }
        self.ninePatch = ninePatch
        self.ninePatchID = id ?? ninePatch.pixelID
    }

    /// `ninepatch(ID)`.
    public var identifier: String { "ninepatch(\(ninePatchID))" }

    /// The room the picture leaves on each side, from the patch's bottom row and right column.
    public var padding: (left: Int, top: Int, right: Int, bottom: Int) {
        let (width, height) = (ninePatch.width, ninePatch.height)
        let across = (1..<(width - 1)).filter { stretchy(x: $0, y: height - 1) }
        let down = (1..<(height - 1)).filter { stretchy(x: width - 1, y: $0) }
        return (
            (across.first ?? 1) - 1, (down.first ?? 1) - 1, width - 2 - (across.last ?? (width - 2)),
            height - 2 - (down.last ?? (height - 2))
        )
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let pad = padding
        let width = image.width + pad.left + pad.right
        let height = image.height + pad.top + pad.bottom
        try limits.checkGrowth(
            width: width, height: height, frames: image.frames.count, sourcePixels: image.width * image.height,
            what: "nine-patch frame")
        let columns = cells(along: ninePatch.width, total: width) { stretchy(x: $0, y: 0) }
        let rows = cells(along: ninePatch.height, total: height) { stretchy(x: 0, y: $0) }
        var result = try image.mappingRasters { raster in
            let white = try Raster(width: width, height: height, fill: RGBA(255, 255, 255))
            var canvas = try white.composited(raster, at: ([pad.left], [pad.top]), opacity: 1)
            canvas = try canvas.drawingNinePatch(ninePatch, columns: columns, rows: rows)
            return canvas
        }
        result.hasAlpha = false
        return result
    }

    /// Whether the patch's pixel at (x, y) is opaque black: a stretchy (or padding) mark.
    func stretchy(x: Int, y: Int) -> Bool { ninePatch[x, y] == RGBA(0, 0, 0, 255) }

    /// The cells along one side: runs of the patch's inner pixels alike in `isStretchy`, each with its place in
    /// the patch and its place and length on a side of `total` pixels (fixed runs keep their length; stretchy
    /// ones share what is left, rounded as thumbor rounds).
    func cells(along length: Int, total: Int, isStretchy: (Int) -> Bool)
        -> [(source: Int, sourceLength: Int, target: Int, targetLength: Int)]
    {
        let inner = Array(1..<(length - 1))
        let stretchyCount = inner.filter(isStretchy).count
        let free = max(0, total - (length - 2 - stretchyCount))
        var cells: [(Int, Int, Int, Int)] = []
        var (source, target) = (1, 0)
        while source < length - 1 {
            let kind = isStretchy(source)
            var next = source + 1
            while next < length - 1, isStretchy(next) == kind { next += 1 }
            let run = next - source
            let stretched = kind ? Int(Double(run) / Double(stretchyCount) * Double(free) + 0.5) : run
            cells.append((source, run, target, stretched))
            (source, target) = (next, target + stretched)
        }
        return cells
    }
}

extension NinePatchFrameProcessor: FrameWiseProcessing {
    /// Always: each frame is framed alike.
    public var processesFramesIndependently: Bool { true }
}

extension NinePatchFrameProcessor: OutputSizePredicting {
    public func predictedOutputSize(for size: PixelSize) -> PixelSize? {
        let pad = padding
        return PixelSize(width: size.width + pad.left + pad.right, height: size.height + pad.top + pad.bottom)
    }
}

extension NinePatchFrameProcessor: HeldMemoryEstimating {
    /// The patch, and the white canvas made before the picture is drawn on it.
    public func heldBytes(for size: PixelSize) -> Int { ninePatch.cost + 4 * size.width * size.height }
}

extension Raster {
    /// This opaque raster with `patch`'s cells drawn over it, stretched as `columns` and `rows` say: bilinear
    /// samples of the cell (thumbor's `paste_rectangle`: the step is (cell − 1) / target), composited over the
    /// colour; a cell that would cross the canvas's right or bottom edge is left out, as thumbor leaves it.
    func drawingNinePatch(
        _ patch: Raster, columns: [(source: Int, sourceLength: Int, target: Int, targetLength: Int)],
        rows: [(source: Int, sourceLength: Int, target: Int, targetLength: Int)]
    ) throws -> Raster {
        var pixels = self.pixels
        patch.withUnsafeBytes { source in
            func sample(_ x: Int, _ y: Int, _ fx: Double, _ fy: Double, _ channel: Int) -> Int {
                let at = { (x: Int, y: Int) in Int(source[y * patch.bytesPerRow + x * 4 + channel]) }
                let (a, b, c, d) = (at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1))
                if a == b && a == c && a == d { return a }
                let mixed =
                    Double(a) * (1 - fx) * (1 - fy) + Double(b) * fx * (1 - fy) + Double(c) * (1 - fx) * fy
                    + Double(d) * fx * fy
                return Int(min(255, max(0, mixed)))
            }
            for row in rows {
                for column in columns {
                    guard column.target + column.targetLength <= width, row.target + row.targetLength <= height
                    else { continue }
                    let xStep = Double(column.sourceLength - 1) / Double(column.targetLength)
                    let yStep = Double(row.sourceLength - 1) / Double(row.targetLength)
                    for y in 0..<row.targetLength {
                        let sy = Int(yStep * Double(y))
                        let fy = yStep * Double(y) - Double(sy)
                        for x in 0..<column.targetLength {
                            let sx = Int(xStep * Double(x))
                            let fx = xStep * Double(x) - Double(sx)
                            let (px, py) = (column.source + sx, row.source + sy)
                            let alpha = Double(sample(px, py, fx, fy, 3)) / 255
                            let t = ((row.target + y) * width + column.target + x) * 4
                            for channel in 0..<3 {
                                let over = Double(sample(px, py, fx, fy, channel)) * alpha
                                let under = Double(pixels[t + channel]) * (1 - alpha)
                                pixels[t + channel] = UInt8(min(255, max(0, over + under)))
                            }
                        }
                    }
                }
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }
}
