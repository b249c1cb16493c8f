/// The one place options become processors, in the fixed order of operations: faces hidden, trim, crop, resize/fit with
/// gravity, rotate/flip, blur/sharpen, the colour effects (gray/bright/contrast/…, in `effectOrder` when set),
/// pad/extend, round, nine-patch frame, watermark. (Flattening onto `bg` and encoding follow, in the encoder:
/// `flattenBackground`.)
extension ProcessingOptions {
    /// The watermark image `wm` draws, and the name its identifier gives it.
    public struct WatermarkImage: Sendable {
        /// Its pixels, upright.
        public var raster: Raster
        /// What identifiers call it (its source).
        public var id: String
        /// A watermark image.
        public init(raster: Raster, id: String) {
            self.raster = raster
            self.id = id
        }
    }

    /// The processors these options ask for. `limits` bound what resizing, padding and extending may allocate;
    /// `maxOutputSide` stands in for a missing `w` or `h`. `wm` without a `watermark` throws an `OptionError`.
    /// `spelling` gives an option (by its Imago key) as the user wrote it: a processor that fails on the image
    /// (a crop with nothing inside it) names the option so.
    public func processors(
        limits: DecodeLimits = .default, maxOutputSide: Int = 8192, watermark: WatermarkImage? = nil,
        spelling: (String) -> String = { $0 }
    ) throws -> [any ImageProcessor] {
        try processors(
            limits: limits, maxOutputSide: maxOutputSide, watermark: watermark, spelling: spelling, faces: nil)
    }

    /// The processors these options ask for, with what a face detector found in the source (`faces`, in the
    /// upright source's pixels; nil when none ran) and the images the options name by URL (`imageSources`: a
    /// watermark's, a nine-patch frame's) loaded by the caller into `images`, by URL. `g=face` (and `g=sm`, when a
    /// detector ran) place their windows on the faces, `blurfaces` and `pixelatefaces` hide them; without `faces`,
    /// `g=face` is smart gravity and nothing is hidden. An image that is missing throws an `OptionError` naming its
    /// option.
    public func processors(
        limits: DecodeLimits = .default, maxOutputSide: Int = 8192, watermark: WatermarkImage? = nil,
        images: [String: WatermarkImage] = [:], spelling: (String) -> String = { $0 }, faces: DetectionResult?
    ) throws -> [any ImageProcessor] {
        let found = faces?.filtered(to: [.face])
        // Smart gravity (`g=face` is smart gravity on faces) looks at the faces when a detector looked. The faces are
        // placed on an image by scaling, so only a window cut from the whole source uses them: after `trim`, or (for
        // the resize) after a `crop`, the window is smart.
        let faceGravity = found.map { self.gravity == .smart ? Gravity.regions($0) : self.gravity } ?? self.gravity
        let gravity = trim == nil ? faceGravity : self.gravity
        let resizeGravity = crop == nil ? gravity : self.gravity
        var processors: [any ImageProcessor] = []
        /// Adds the processor of the option `key`, built by `make`; a value it refuses names the option.
        func add(_ key: String, _ make: () throws -> any ImageProcessor) throws {
            let option = OptionError.shown(spelling(key))
            do {
                processors.append(SpelledProcessor(try make(), option: option))
            } catch let error as ImagoError {
                throw OptionError(.conflicting, item: option, message: "option \"\(option)\": \(error.reason)")
            }
        }
        // The faces are placed by scaling onto the image a processor receives: they are hidden first, on the whole
        // (upright, maybe reduced) source.
        if let found, let sigma = blurFaces {
            try add("blurfaces") { try RegionHidingProcessor(regions: found, style: .blur(sigma: sigma)) }
        }
        if let found, let cell = pixelateFaces {
            try add("pixelatefaces") { try RegionHidingProcessor(regions: found, style: .pixelate(cell: cell)) }
        }
        if let trim {
            try add("trim") {
                try TrimProcessor(
                    threshold: trim, reference: trimRule.reference, distance: trimRule.distance,
                    equalHorizontal: trimRule.equalHorizontal, equalVertical: trimRule.equalVertical)
            }
        }
        // A window placed by `g` moves by `g`'s offsets; one with its own gravity by its own.
        let gravityOffset = Offset(x: adjustments.offset.x, y: adjustments.offset.y).scaled(dpr)
        switch crop {
        case .region(let region)?: try add("crop") { CropProcessor(region: region) }
        case .aspect(let width, let height)?:
            try add("crop") {
                var crop = CropProcessor(aspectWidth: width, aspectHeight: height, gravity: gravity)
                crop.offset = gravityOffset
                return crop
            }
        case .window(let width, let height, let placement)?:
            try add("crop") {
                var crop = CropProcessor(windowWidth: width, windowHeight: height, gravity: placement ?? gravity)
                crop.offset = placement == nil ? gravityOffset : cropOffset.scaled(dpr)
                return crop
            }
        case nil: break
        }
        if let resize = resizeProcessor(limits: limits, maxOutputSide: maxOutputSide, gravity: resizeGravity) {
            try add(width != nil ? "w" : "h") { resize }
        }
        if let scale {
            try add("scale") {
                var processor = try ScaleProcessor(x: scale.x, y: scale.y, rounding: scale.rounding)
                processor.limits = limits
                return processor
            }
        }
        if let rotate { try add("rot") { try RotateProcessor(degrees: rotate) } }
        switch flip {
        case .h?: try add("flip") { FlipProcessor(.horizontal) }
        case .v?: try add("flip") { FlipProcessor(.vertical) }
        case .hv?: try add("flip") { FlipProcessor(.both) }
        case nil: break
        }
        if let blur { try add("blur") { try BlurProcessor(sigma: blur) } }
        if let sharpen { try add("sharpen") { try SharpenProcessor(sigma: sharpen) } }
        if let blur = truncatedBlur {
            try add("gblur") { try TruncatedGaussianBlurProcessor(radius: blur.radius, sigma: blur.sigma) }
        }
        if let sharpen = waveletSharpen {
            try add("wsharpen") {
                try WaveletSharpenProcessor(
                    amount: sharpen.amount, radius: sharpen.radius, luminanceOnly: sharpen.luminanceOnly)
            }
        }
        for (key, make) in try orderedEffectProcessors() { try add(key, make) }
        if let pixelate { try add("pix") { try PixelateProcessor(blockSize: Self.scaled(pixelate, dpr)) } }
        let background = self.background ?? RGBA(255, 255, 255)
        if let pad = outputPadding {
            try add("pad") {
                var processor = try PadProcessor(
                    top: pad.top, right: pad.right, bottom: pad.bottom, left: pad.left, background: background)
                processor.limits = limits
                return processor
            }
        }
        if extend, fit == .contain, let width = outputWidth, let height = outputHeight {
            let placement = extendGravity ?? (self.gravity == .smart ? .center : self.gravity)
            try add("ext") {
                var processor = try ExtendProcessor(
                    width: width, height: height, gravity: placement, background: background)
                processor.offset = extendOffset.scaled(dpr)
                processor.limits = limits
                return processor
            }
        }
        if let placement = aspectExtend, let width = outputWidth, let height = outputHeight {
            try add("exar") {
                var processor = try AspectExtendProcessor(
                    aspectWidth: width, aspectHeight: height, gravity: placement, background: background)
                processor.limits = limits
                return processor
            }
        }
        if let canvas = canvasFill {
            let box = canvas.usesTargetSize ? (outputWidth, outputHeight) : (nil, nil)
            try add("fill") {
                var processor = try CanvasFillProcessor(
                    width: box.0, height: box.1, fill: canvas.fill, fillsTransparency: canvas.fillsTransparency)
                processor.limits = limits
                return processor
            }
        }
        if let flatten { try add("flatten") { FlattenProcessor(background: flatten) } }
        if let round = roundCorners {
            try add("round") {
                try RoundCornerProcessor(
                    radiusX: Self.scaled(round.radiusX, dpr), radiusY: Self.scaled(round.radiusY, dpr),
                    background: round.background)
            }
        }
        if let source = ninePatch {
            guard let patch = images[source] else { throw Self.notLoaded(source, option: spelling("ninepatch")) }
            try add("ninepatch") {
                var processor = try NinePatchFrameProcessor(ninePatch: patch.raster, id: patch.id)
                processor.limits = limits
                return processor
            }
        }
        if let mark = self.watermark {
            guard let watermark = mark.source.map({ images[$0] }) ?? watermark else {
                if let source = mark.source { throw Self.notLoaded(source, option: spelling("wm")) }
                let option = OptionError.shown(spelling("wm"))
                throw OptionError(
                    .conflicting, item: option,
                    message: "option \"\(option)\": no watermark is configured (serve.watermark)")
            }
            try add("wm") {
                var processor = try WatermarkProcessor(
                    watermark: watermark.raster, opacity: mark.opacity, gravity: mark.position, scale: mark.scale,
                    id: watermark.id)
                processor.offset = mark.offset.scaled(dpr)
                processor.fit = (mark.fitWidth, mark.fitHeight)
                processor.fitRoundsToEven = mark.fitRoundsToEven
                processor.alphaReduction = mark.alphaReduction
                if case .grid(let gapX, let gapY) = mark.tiling {
                    processor.tiling = .grid(gapX: Self.scaled(gapX, dpr), gapY: Self.scaled(gapY, dpr))
                } else {
                    processor.tiling = mark.tiling
                }
                return processor
            }
        }
        // `mrd`: the finished image scaled down to fit within it, never up (imgproxy's max_result_dimension).
        if let side = self.limits.maxResultSide {
            try add("mrd") { ResizeProcessor(width: side, height: side, mode: .fit, upscale: false) }
        }
        return processors
    }

    private func resizeProcessor(limits: DecodeLimits, maxOutputSide: Int, gravity: Gravity) -> (any ImageProcessor)? {
        guard width != nil || height != nil else { return nil }
        let width = outputWidth ?? maxOutputSide
        let height = outputHeight ?? maxOutputSide
        let both = self.width != nil && self.height != nil
        switch both || fit == .fill ? fit : .contain {
        case .contain, .cover:
            let mode: ContentMode = fit == .cover && both ? .fill : .fit
            var resize = ResizeProcessor(
                width: width, height: height, mode: mode, upscale: enlarge, gravity: mode == .fill ? gravity : .center)
            resize.limits = limits
            resize.adjustments = outputAdjustments
            return resize
        case .auto, .adaptive, .outside, .adaptiveOutside:
            var resize = OrientationFitProcessor(
                rule: OrientationFitProcessor.Rule(rawValue: fit.rawValue) ?? .auto, width: width, height: height,
                upscale: enlarge, gravity: fit == .auto ? gravity : .center)
            resize.limits = limits
            resize.adjustments = outputAdjustments
            return resize
        case .fill:
            // One side 0 keeps the aspect ratio (imgproxy's `rs:force:0:300`).
            var stretch = StretchProcessor(width: outputWidth ?? 0, height: outputHeight ?? 0, upscale: enlarge)
            stretch.limits = limits
            return stretch
        }
    }

    /// Whether these options need a face detector's answer: `blurfaces`, `pixelatefaces`; `g=face`, or `g=sm` when
    /// `smartFindsFaces` (a detector is configured), where `g` places a window cut from the whole source (not after
    /// `trim` or a `crop` region, whose windows stay smart).
    public func wantsFaces(smartFindsFaces: Bool) -> Bool {
        guard blurFaces == nil, pixelateFaces == nil else { return true }
        guard gravityOnFaces || (smartFindsFaces && gravity == .smart), trim == nil else { return false }
        let both = width != nil && height != nil
        switch crop {
        case .aspect?, .window(_, _, nil)?: return true
        case nil: return both && (fit == .cover || fit == .auto)
        default: return false
        }
    }

    /// The error for an image an option names by URL that the caller did not load into `images`.
    private static func notLoaded(_ source: String, option spelled: String) -> OptionError {
        let option = OptionError.shown(spelled)
        return OptionError(
            .conflicting, item: option, message: "option \"\(option)\": its image \(source) was not loaded")
    }

    /// Whether the decoder may decode at a reduced scale for the resize: not when `trim` or `crop` come first
    /// (crop pixels are pixels of the full-size source, and a crop keeps less than the resize expects), nor when the
    /// resize's adjustments work on the source's own pixels (`ResizeAdjustments.needsFullSizeImage`).
    public var allowsReducedDecode: Bool {
        trim == nil && crop == nil && (width != nil || height != nil) && !adjustments.needsFullSizeImage
    }

    /// What encoders of formats without alpha composite transparent pixels onto: `bg`, else white.
    public var flattenBackground: RGBColor {
        background.map { RGBColor($0.r, $0.g, $0.b) } ?? .white
    }
}
