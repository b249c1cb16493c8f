/// Draws a watermark on every frame: `watermark` at `opacity`, placed by `gravity` (an edge, a corner, the
/// centre or a focus point; not `.smart`), optionally scaled to a fraction of the image's width first (with the
/// resampler, in premultiplied alpha). Composited "source over" in straight alpha: the result's alpha is
/// αw + αi(1 − αw) and its colour the alpha-weighted mix, so a transparent image stays correct.
public struct WatermarkProcessor: ImageProcessor {
    /// The watermark's pixels.
    public let watermark: Raster
    /// How opaque it is drawn, 0…1.
    public let opacity: Double
    /// Where it goes.
    public let gravity: Gravity
    /// Its width as a fraction (0…1] of the image's width, or nil for its natural size.
    public let scale: Double?
    /// What the identifier calls the watermark: the caller's id, or `xxh64:` and a hash of its pixels.
    public let watermarkID: String

    /// Creates a watermark; an opacity outside 0…1, a scale outside (0, 1], or `.smart` (or a focus point outside
    /// 0…1) throws `processingFailed`. `id` names the image in `identifier` (by default, a hash of its pixels).
    public init(
        watermark: Raster, opacity: Double = 1, gravity: Gravity = .southEast, scale: Double? = nil, id: String? = nil
    ) throws {
        guard (0...1).contains(opacity) else {
            throw ImagoError(.processingFailed, "watermark opacity \(opacity) is not within 0…1")
        }
        if let scale, !(scale > 0 && scale <= 1) {
            throw ImagoError(.processingFailed, "watermark scale \(scale) is not within (0, 1]")
        }
        guard gravity != .smart else {
            throw ImagoError(.processingFailed, "a watermark cannot be placed by smart gravity")
        }
        try gravity.validate()
        self.watermark = watermark
        self.opacity = opacity
        self.gravity = gravity
        self.scale = scale
        self.watermarkID =
            id
            ?? watermark.withUnsafeBytes { bytes in
                "xxh64:" + String(XXHash64.hash(bytes, seed: UInt64(watermark.width)), radix: 16)
            }
    }

    /// Creates a watermark from a decoded image: its first frame, turned upright by its EXIF orientation.
    public init(
        watermark image: DecodedImage, opacity: Double = 1, gravity: Gravity = .southEast, scale: Double? = nil,
        id: String? = nil
    ) throws {
        try self.init(
            watermark: try image.raster.oriented(image.orientation), opacity: opacity, gravity: gravity, scale: scale,
            id: id)
    }

    /// `watermark(ID,OPACITY,g=CODE[,SCALE])`.
    public var identifier: String {
        "watermark(\(watermarkID),\(opacity),g=\(gravity.code)\(scale.map { ",\($0)" } ?? ""))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard opacity > 0 else { return image }
        var mark = watermark
        if let scale {
            let width = max(1, Int((Double(image.width) * scale).rounded()))
            let height = max(1, Int((Double(watermark.height) * Double(width) / Double(watermark.width)).rounded()))
            if width != watermark.width || height != watermark.height {
                try DecodeLimits.default.checkGrowth(
                    width: width, height: height, frames: 1, sourcePixels: image.width * image.height,
                    what: "watermark scale")
                mark = try watermark.resampled(
                    sourceRect: (0, 0, Double(watermark.width), Double(watermark.height)), outputWidth: width,
                    outputHeight: height, filter: .catmullRom)
            }
        }
        let origin = gravity.placement(
            width: mark.width, height: mark.height, canvasWidth: image.width, canvasHeight: image.height)
        var result = try image.mappingRasters { try $0.composited(mark, x: origin.x, y: origin.y, opacity: opacity) }
        result.hasAlpha = image.hasAlpha && result.frames.contains { $0.raster.hasTransparency }
        return result
    }
}

extension Raster {
    /// This raster with `overlay` drawn over it at (`x`, `y`) (parts outside are cut off), its alpha times
    /// `opacity`, straight alpha in and out.
    func composited(_ overlay: Raster, x: Int, y: Int, opacity: Double) throws -> Raster {
        let strength = Float(opacity) / 255
        return try withUnsafeBytes { base in
            try overlay.withUnsafeBytes { top in
                try Raster(width: width, height: height) { target in
                    for row in 0..<height {
                        UnsafeMutableRawBufferPointer(rebasing: target[(row * width * 4)..<((row + 1) * width * 4)])
                            .copyMemory(
                                from: UnsafeRawBufferPointer(
                                    rebasing: base[(row * bytesPerRow)..<(row * bytesPerRow + width * 4)]))
                    }
                    let left = max(0, x)
                    let right = min(width, x + overlay.width)
                    let first = max(0, y)
                    let last = min(height, y + overlay.height)
                    guard left < right, first < last else { return }
                    for row in first..<last {
                        for column in left..<right {
                            let t = (row * width + column) * 4
                            let s = (row - y) * overlay.bytesPerRow + (column - x) * 4
                            let alphaTop = Float(top[s + 3]) * strength
                            guard alphaTop > 0 else { continue }
                            let alphaBase = Float(target[t + 3]) / 255
                            let alpha = alphaTop + alphaBase * (1 - alphaTop)
                            let baseWeight = alphaBase * (1 - alphaTop)
                            for channel in 0..<3 {
                                let mixed =
                                    (Float(top[s + channel]) * alphaTop + Float(target[t + channel]) * baseWeight)
                                    / alpha
                                target[t + channel] = UInt8(min(255, max(0, mixed.rounded())))
                            }
                            target[t + 3] = UInt8(min(255, (alpha * 255).rounded()))
                        }
                    }
                }
            }
        }
    }
}
