/// The one place options become processors, in the fixed order of operations: trim, crop, resize/fit with
/// gravity, rotate/flip, blur/sharpen, gray/bright/contrast, pad/extend, round, watermark. (Flattening onto `bg` and
/// encoding follow, in the encoder: `flattenBackground`.)
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
    public func processors(
        limits: DecodeLimits = .default, maxOutputSide: Int = 8192, watermark: WatermarkImage? = nil
    ) throws -> [any ImageProcessor] {
        var processors: [any ImageProcessor] = []
        do {
            if let trim { processors.append(try TrimProcessor(threshold: trim)) }
            switch crop {
            case .region(let region)?: processors.append(CropProcessor(region: region))
            case .aspect(let width, let height)?:
                processors.append(CropProcessor(aspectWidth: width, aspectHeight: height, gravity: gravity))
            case .window(let width, let height, let gravity)?:
                processors.append(CropProcessor(windowWidth: width, windowHeight: height, gravity: gravity))
            case nil: break
            }
            processors += resizeProcessors(limits: limits, maxOutputSide: maxOutputSide)
            if let rotate { processors.append(try RotateProcessor(degrees: rotate)) }
            switch flip {
            case .h?: processors.append(FlipProcessor(.horizontal))
            case .v?: processors.append(FlipProcessor(.vertical))
            case .hv?: processors.append(FlipProcessor(.both))
            case nil: break
            }
            if let blur { processors.append(try BlurProcessor(sigma: blur)) }
            if let sharpen { processors.append(try SharpenProcessor(sigma: sharpen)) }
            if grayscale { processors.append(GrayscaleProcessor()) }
            if let brightness { processors.append(try BrightnessProcessor(amount: brightness)) }
            if let contrast { processors.append(try ContrastProcessor(amount: contrast)) }
            let background = self.background ?? RGBA(255, 255, 255)
            if let pad = outputPadding {
                var processor = try PadProcessor(
                    top: pad.top, right: pad.right, bottom: pad.bottom, left: pad.left, background: background)
                processor.limits = limits
                processors.append(processor)
            }
            if extend, fit == .contain, let width = outputWidth, let height = outputHeight {
                var processor = try ExtendProcessor(
                    width: width, height: height, gravity: gravity == .smart ? .center : gravity,
                    background: background)
                processor.limits = limits
                processors.append(processor)
            }
            if let round = roundCorners {
                processors.append(
                    try RoundCornerProcessor(
                        radiusX: Self.scaled(round.radiusX, dpr), radiusY: Self.scaled(round.radiusY, dpr),
                        background: round.background))
            }
        } catch let error as ImagoError {
            throw OptionError(item: "options", message: "options: \(error.reason)")
        }
        if let mark = self.watermark {
            guard let watermark else {
                throw OptionError(item: "wm", message: "option wm: no watermark is configured (serve.watermark)")
            }
            do {
                processors.append(
                    try WatermarkProcessor(
                        watermark: watermark.raster, opacity: mark.opacity, gravity: mark.position, scale: mark.scale,
                        id: watermark.id))
            } catch let error as ImagoError {
                throw OptionError(item: "wm", message: "option wm: \(error.reason)")
            }
        }
        return processors
    }

    private func resizeProcessors(limits: DecodeLimits, maxOutputSide: Int) -> [any ImageProcessor] {
        guard width != nil || height != nil else { return [] }
        let width = outputWidth ?? maxOutputSide
        let height = outputHeight ?? maxOutputSide
        let both = self.width != nil && self.height != nil
        switch both ? fit : .contain {
        case .contain, .cover:
            let mode: ContentMode = fit == .cover && both ? .fill : .fit
            var resize = ResizeProcessor(
                width: width, height: height, mode: mode, upscale: enlarge, gravity: mode == .fill ? gravity : .center)
            resize.limits = limits
            return [resize]
        case .auto, .adaptive, .outside:
            var resize = OrientationFitProcessor(
                rule: OrientationFitProcessor.Rule(rawValue: fit.rawValue) ?? .auto, width: width, height: height,
                upscale: enlarge, gravity: fit == .auto ? gravity : .center)
            resize.limits = limits
            return [resize]
        case .fill:
            var stretch = StretchProcessor(width: width, height: height, upscale: enlarge)
            stretch.limits = limits
            return [stretch]
        }
    }

    /// Whether the decoder may decode at a reduced scale for the resize: not when `trim` or `crop` come first
    /// (crop pixels are pixels of the full-size source, and a crop keeps less than the resize expects).
    public var allowsReducedDecode: Bool { trim == nil && crop == nil && (width != nil || height != nil) }

    /// What encoders of formats without alpha composite transparent pixels onto: `bg`, else white.
    public var flattenBackground: RGBColor {
        background.map { RGBColor($0.r, $0.g, $0.b) } ?? .white
    }
}
