/// Draws a watermark on every frame: `watermark` at `opacity`, placed by `gravity` (an edge, a corner, the
/// centre or a focus point; not `.smart`) and moved by `offset`, or laid as tiles (`tiling`); optionally scaled
/// first to a fraction of the image's width (`scale`) or to fit fractions of its sides (`fit`), with the
/// resampler, in premultiplied alpha. Composited "source over" in straight alpha: the result's alpha is
/// αw + αi(1 − αw) and its colour the alpha-weighted mix, so a transparent image stays correct.
public struct WatermarkProcessor: ImageProcessor {
    /// How copies of the mark cover the image.
    public enum Tiling: Sendable, Hashable {
        /// Copies side by side over the whole image, `gapX` and `gapY` pixels apart (each gap split before and
        /// after the mark), an odd number of them along each side with the middle one centred (imgproxy's `re`).
        case grid(gapX: Int, gapY: Int)
        /// thumbor's `repeat` along the sides named (the other side placed by `gravity` and `offset`): as many
        /// whole copies as fit, from edge to edge with equal gaps (two copies 10 px apart when fewer than two fit;
        /// with both sides over 100 copies, six a side).
        case spread(horizontal: Bool, vertical: Bool)
    }

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
    /// Moves the mark from where `gravity` puts it (imgproxy's `wm` offsets, thumbor's positions): pixels when a
    /// value's magnitude is 1 or more, else a fraction of the image's side, positive away from the edge the
    /// gravity names (as `ExtendProcessor.offset`). (0, 0) by default; not used by `.grid` tiles.
    public var offset: (x: Double, y: Double) = (0, 0)
    /// When either bound is set, instead of `scale`: the mark scaled up or down to fit within these fractions
    /// of the image's width and height, its aspect ratio kept (a nil bound follows from the other: thumbor's
    /// `W_RATIO`, `H_RATIO`). Each must be within (0, 100].
    public var fit: (width: Double?, height: Double?) = (nil, nil)
    /// How `fit` rounds, as imgproxy's `wm` scale when true: the box's sides rounded to even pixels (at least 1),
    /// the mark's sides half away from zero. False by default: as thumbor, the box unrounded and the mark's sides
    /// half to even.
    public var fitRoundsToEven = false
    /// Levels (0…255) taken from every alpha value of the mark before it is drawn (thumbor's transparency,
    /// `255 × ALPHA / 100`); `opacity` still multiplies what is left. 0 by default.
    public var alphaReduction = 0
    /// Copies over the image instead of one; nil by default.
    public var tiling: Tiling?

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
        self.watermarkID = id ?? watermark.pixelID
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

    /// `watermark(ID,OPACITY,g=CODE[,SCALE][,off=X:Y][,fit=W:H][,fade=N][,tile=…])`.
    public var identifier: String {
        var text = "watermark(\(watermarkID),\(opacity),g=\(gravity.code)\(scale.map { ",\($0)" } ?? "")"
        if offset != (0, 0) { text += ",off=\(offset.x):\(offset.y)" }
        if fit.width != nil || fit.height != nil {
            text += ",fit=\(fit.width.map { "\($0)" } ?? "-"):\(fit.height.map { "\($0)" } ?? "-")"
            if fitRoundsToEven { text += ":even" }
        }
        if alphaReduction != 0 { text += ",fade=\(alphaReduction)" }
        switch tiling {
        case .grid(let gapX, let gapY): text += ",tile=grid:\(gapX):\(gapY)"
        case .spread(let horizontal, let vertical):
            text += ",tile=spread:" + (horizontal ? "h" : "") + (vertical ? "v" : "")
        case nil: break
        }
        return text + ")"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try validateLayout()
        guard opacity > 0, alphaReduction < 255 else { return image }
        let mark = try prepared(for: image)
        let origins = layout(mark: (mark.width, mark.height), image: (image.width, image.height))
        guard !origins.xs.isEmpty, !origins.ys.isEmpty else { return image }
        var result = try image.mappingRasters { try $0.composited(mark, at: origins, opacity: opacity) }
        result.hasAlpha = image.hasAlpha && result.frames.contains { $0.raster.hasTransparency }
        return result
    }

    private func validateLayout() throws {
        for bound in [fit.width, fit.height].compactMap({ $0 }) where !(bound > 0 && bound <= 100) {
            throw ImagoError(.processingFailed, "watermark fit \(bound) is not within (0, 100]")
        }
        guard (0...255).contains(alphaReduction) else {
            throw ImagoError(.processingFailed, "watermark alpha reduction \(alphaReduction) is not within 0…255")
        }
        if case .grid(let gapX, let gapY) = tiling, gapX < 0 || gapY < 0 || gapX > 1 << 20 || gapY > 1 << 20 {
            throw ImagoError(.processingFailed, "watermark tile gaps \(gapX), \(gapY) are not within 0…1048576")
        }
    }

    /// The mark faded by `alphaReduction`, then scaled as `fit` or `scale` ask, within the image's limits.
    private func prepared(for image: DecodedImage) throws -> Raster {
        var mark = alphaReduction > 0 ? try watermark.reducingAlpha(by: alphaReduction) : watermark
        if let size = scaledSize(on: (image.width, image.height)),
            size.width != mark.width || size.height != mark.height
        {
            try DecodeLimits.default.checkGrowth(
                width: size.width, height: size.height, frames: 1, sourcePixels: image.width * image.height,
                what: "watermark scale")
            mark = try mark.resampled(
                sourceRect: (0, 0, Double(mark.width), Double(mark.height)), outputWidth: size.width,
                outputHeight: size.height, filter: fit.width != nil || fit.height != nil ? .lanczos3 : .catmullRom)
        }
        return mark
    }

    /// The size `fit` (or else `scale`) gives the mark on an image of `image`'s size; nil when neither is set.
    func scaledSize(on image: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        if fit.width != nil || fit.height != nil {
            return Self.fitted(
                mark: (watermark.width, watermark.height), image: image, bounds: fit, roundsToEven: fitRoundsToEven)
        }
        guard let scale else { return nil }
        let width = max(1, Int((Double(image.width) * scale).rounded()))
        return (width, max(1, Int((Double(watermark.height) * Double(width) / Double(watermark.width)).rounded())))
    }

    /// The mark's size fitting `bounds` (fractions of the image's sides), as thumbor's `calc_watermark_size`;
    /// with `roundsToEven`, as imgproxy's `prepareWatermark` (a box of `ScaleToEven` sides, a fit with enlarging).
    static func fitted(
        mark: (width: Int, height: Int), image: (width: Int, height: Int), bounds: (width: Double?, height: Double?),
        roundsToEven: Bool = false
    ) -> (width: Int, height: Int) {
        let (markWidth, markHeight) = (Double(mark.width), Double(mark.height))
        func box(_ side: Int, _ fraction: Double?) -> Double {
            guard let fraction else { return 0 }
            let exact = Double(side) * fraction
            return roundsToEven ? max(1, (exact / 2).rounded() * 2) : exact
        }
        let (boxWidth, boxHeight) = (box(image.width, bounds.width), box(image.height, bounds.height))
        let maxWidth = boxWidth > 0 ? boxWidth : markWidth * boxHeight / markHeight
        let maxHeight = boxHeight > 0 ? boxHeight : markHeight * maxWidth / markWidth
        let size: (Double, Double)
        if markWidth / maxWidth >= markHeight / maxHeight {
            size = (maxWidth, markHeight * maxWidth / markWidth)
        } else {
            size = (markWidth * maxHeight / markHeight, maxHeight)
        }
        let rule: FloatingPointRoundingRule = roundsToEven ? .toNearestOrAwayFromZero : .toNearestOrEven
        return (max(1, Int(size.0.rounded(rule))), max(1, Int(size.1.rounded(rule))))
    }
}
