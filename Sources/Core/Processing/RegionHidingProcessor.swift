/// Hides the regions a detector found (faces, for privacy) in every frame: blurs them with a Gaussian of `sigma`
/// (`blurfaces=SIGMA`), or pixelates them in squares of `cell` pixels (`pixelatefaces=N`). The regions are placed on
/// the image the processor receives (`DetectionResult.regions(in:)`) and grown by `margin` of their size on every side;
/// the rest of the image is unchanged.
public struct RegionHidingProcessor: ImageProcessor {
    /// How the regions are hidden.
    public enum Style: Sendable, Hashable {
        /// A Gaussian blur of this standard deviation in pixels (0.3…100, as `BlurProcessor`).
        case blur(sigma: Double)
        /// Squares of this many pixels on a side (2…256), each of its average colour.
        case pixelate(cell: Int)
    }

    /// What is hidden.
    public let regions: DetectionResult
    /// How.
    public let style: Style
    /// How much each region grows on every side, as a fraction of its width and height (0…1).
    public let margin: Double

    /// Creates the processor; a sigma, cell or margin out of range throws `processingFailed`.
    public init(regions: DetectionResult, style: Style, margin: Double = 0.1) throws {
        switch style {
        case .blur(let sigma) where !BlurProcessor.sigmaRange.contains(sigma):
            throw ImagoError(.processingFailed, "blur sigma \(sigma) is not within 0.3…100")
        case .pixelate(let cell) where !(2...256).contains(cell):
            throw ImagoError(.processingFailed, "pixelation cell \(cell) is not within 2…256")
        default: break
        }
        guard (0...1).contains(margin) else {
            throw ImagoError(.processingFailed, "region margin \(margin) is not within 0…1")
        }
        self.regions = regions
        self.style = style
        self.margin = margin
    }

    /// `blurregions(SIGMA,margin,REGIONS)` or `pixelateregions(CELL,margin,REGIONS)`.
    public var identifier: String {
        switch style {
        case .blur(let sigma): "blurregions(\(sigma),\(margin),\(regions))"
        case .pixelate(let cell): "pixelateregions(\(cell),\(margin),\(regions))"
        }
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let rectangles = regions.rectangles(in: PixelSize(width: image.width, height: image.height), margin: margin)
        guard !rectangles.isEmpty else { return image }
        return try image.mappingRasters { raster in
            switch style {
            case .blur(let sigma): try raster.blurring(rectangles, sigma: sigma, premultiply: image.hasAlpha)
            case .pixelate(let cell): try raster.pixelating(rectangles, cell: cell)
            }
        }
    }
}

extension RegionHidingProcessor: FrameWiseProcessing {
    /// Always: the regions are the same in every frame.
    public var processesFramesIndependently: Bool { true }
}
