/// Resizes every frame to a target size: `fit` scales inside it keeping the aspect ratio, `fill` covers it and
/// crops to exactly the target, keeping the window `gravity` says (the centre by default). Resampling is done in
/// premultiplied alpha, so edges stay clean.
public struct ResizeProcessor: ImageProcessor {
    /// The target size, in pixels.
    public var size: PixelSize
    /// How the image is fitted into the size (`mode:` in the initialisers).
    public var contentMode: ContentMode
    /// Whether an image smaller than the target is enlarged (off by default: it is kept as it is, and `fill`
    /// only crops it to the target's aspect ratio).
    public var upscale: Bool
    /// The resampling filter.
    public var filter: ResizeFilter
    /// Which window `.fill` keeps: the centre (the default), an edge or corner, a focus point, or the most
    /// salient one (`.smart`, chosen on the first frame of the image the processor receives, so a reduced decode
    /// gets the same window). Ignored by `.fit`.
    public var gravity: Gravity = .center
    /// Bounds on the output (`maxPixels` per frame, `maxTotalPixels` for all frames), checked before resampling,
    /// so an enlargement cannot allocate more than a decode may. Not part of `identifier`: it never changes a
    /// result it allows.
    public var limits: DecodeLimits = .default
    /// What the URL grammars add: a target clamped to the image, focal regions, zoom, minimum sizes and gravity
    /// offsets (`ResizeAdjustments`); none by default.
    public var adjustments = ResizeAdjustments()

    /// Creates a resize to `size`.
    public init(
        size: PixelSize, mode: ContentMode = .fit, upscale: Bool = false, filter: ResizeFilter = .lanczos3
    ) {
        self.size = size
        self.contentMode = mode
        self.upscale = upscale
        self.filter = filter
    }

    /// Creates a resize to `width` × `height`.
    public init(
        width: Int, height: Int, mode: ContentMode = .fit, upscale: Bool = false,
        filter: ResizeFilter = .lanczos3
    ) {
        self.init(
            size: PixelSize(width: width, height: height), mode: mode, upscale: upscale, filter: filter)
    }

    /// Creates a resize to `width` × `height` whose `.fill` window is placed by `gravity`.
    public init(
        width: Int, height: Int, mode: ContentMode = .fit, upscale: Bool = false,
        filter: ResizeFilter = .lanczos3, gravity: Gravity
    ) {
        self.init(
            size: PixelSize(width: width, height: height), mode: mode, upscale: upscale, filter: filter)
        self.gravity = gravity
    }

    /// `resize(WxH,mode,upscale|noupscale,filter)`, with `,g=CODE` for a `.fill` whose gravity is not `.center`
    /// (so the keys of centred resizes stay what they were).
    public var identifier: String {
        let placed = contentMode == .fill && gravity != .center ? ",g=\(gravity.code)" : ""
        return
            "resize(\(size),\(contentMode.rawValue),\(upscale ? "upscale" : "noupscale"),\(filter.rawValue)\(placed)"
            + "\(adjustments.identifier))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard size.width > 0, size.height > 0 else {
            throw ImagoError(.processingFailed, "resize to an empty size \(size)")
        }
        if contentMode == .fill { try gravity.validate() }
        try adjustments.validate()
        let plan = self.plan(width: image.width, height: image.height, raster: image.raster)
        guard !plan.isIdentity else { return image }
        try checkLimits(plan, frames: image.frames.count, sourcePixels: image.width * image.height)
        var result = image
        result.frames = try image.frames.map { frame in
            let raster = frame.raster
            let resized = try raster.resampled(
                sourceRect: plan.sourceRect, outputWidth: plan.outputWidth, outputHeight: plan.outputHeight,
                filter: filter, premultiply: image.hasAlpha)
            return ImageFrame(raster: resized, duration: frame.duration)
        }
        return result
    }

    /// Throws `limitExceeded` when the planned output is over `limits` and larger than the source: shrinking an image
    /// that was already let in (under limits raised at decoding) is never refused.
    private func checkLimits(_ plan: Plan, frames: Int, sourcePixels: Int) throws {
        let (width, height) = (plan.outputWidth, plan.outputHeight)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || (pixels > limits.maxPixels && pixels > sourcePixels) {
            throw ImagoError(
                .limitExceeded,
                "too large: resizing to \(width)x\(height) exceeds the \(DecodeLimits.megapixels(limits.maxPixels)) limit"
            )
        }
        let (total, totalOverflow) = pixels.multipliedReportingOverflow(by: Swift.max(frames, 1))
        if totalOverflow || (total > limits.maxTotalPixels && pixels > sourcePixels) {
            throw ImagoError(
                .limitExceeded,
                "too large: resizing \(frames) frames to \(width)x\(height) exceeds the "
                    + "\(DecodeLimits.megapixels(limits.maxTotalPixels)) limit")
        }
    }

    /// What part of a `width` × `height` image maps to what output size.
    struct Plan {
        var sourceRect: (x: Double, y: Double, width: Double, height: Double)
        var outputWidth: Int
        var outputHeight: Int
        var isIdentity: Bool
    }

    /// The plan for a `width` × `height` image; `raster` is looked at only by `.smart` gravity (nil centres).
    func plan(width: Int, height: Int, raster: Raster? = nil) -> Plan {
        guard adjustments.isEmpty else { return adjustedPlan(width: width, height: height, raster: raster) }
        let w = Double(width)
        let h = Double(height)
        let tw = Double(size.width)
        let th = Double(size.height)
        var rect = (x: 0.0, y: 0.0, width: w, height: h)
        let outputWidth: Int
        let outputHeight: Int
        switch contentMode {
        case .fit:
            var scale = min(tw / w, th / h)
            if !upscale { scale = min(scale, 1) }
            outputWidth = max(1, Int((w * scale).rounded()))
            outputHeight = max(1, Int((h * scale).rounded()))
        case .fill:
            var scale = max(tw / w, th / h)
            if !upscale && scale > 1 {
                // Too small to fill: keep the pixels and only crop to the target's aspect ratio.
                let shrink = min(w / tw, h / th)
                outputWidth = max(1, min(width, Int((tw * shrink).rounded())))
                outputHeight = max(1, min(height, Int((th * shrink).rounded())))
                scale = 1
            } else {
                outputWidth = size.width
                outputHeight = size.height
            }
            // The source span is the output size seen at the scale; gravity places it (centred by default).
            rect.width = min(w, Double(outputWidth) / scale)
            rect.height = min(h, Double(outputHeight) / scale)
            if gravity == .center {
                rect.x = (w - rect.width) / 2
                rect.y = (h - rect.height) / 2
            } else {
                let origin = gravity.windowOrigin(
                    window: (rect.width, rect.height), width: width, height: height, raster: raster)
                (rect.x, rect.y) = (origin.x, origin.y)
            }
        }
        let identity = outputWidth == width && outputHeight == height && rect.x == 0 && rect.y == 0
        return Plan(sourceRect: rect, outputWidth: outputWidth, outputHeight: outputHeight, isIdentity: identity)
    }
}
