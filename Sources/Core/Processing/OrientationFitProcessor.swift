/// Fills (and crops) when the image and the target have the same orientation, fits inside otherwise: imgproxy's
/// `auto` resizing type. Landscape and square count as one orientation (width ≥ height), portrait as the other. The
/// choice is made on the image the processor receives, so a rotated or reduced source chooses as its pixels show.
public struct OrientationFitProcessor: ImageProcessor {
    /// The resize used when the orientations agree (`.fill`).
    public var fill: ResizeProcessor
    /// The resize used when they differ (`.fit`).
    public var fit: ResizeProcessor

    /// Creates the processor for a `width` × `height` target; `gravity` places the window of a fill.
    public init(width: Int, height: Int, upscale: Bool = false, gravity: Gravity = .center) {
        fill = ResizeProcessor(width: width, height: height, mode: .fill, upscale: upscale, gravity: gravity)
        fit = ResizeProcessor(width: width, height: height, mode: .fit, upscale: upscale)
    }

    /// `resize(WxH,auto,upscale|noupscale,filter)`, with `,g=CODE` when the fill's gravity is not the centre.
    public var identifier: String {
        let placed = fill.gravity != .center ? ",g=\(fill.gravity.code)" : ""
        return "resize(\(fill.size),auto,\(fill.upscale ? "upscale" : "noupscale"),\(fill.filter.rawValue)\(placed))"
    }

    /// Bounds on the output, as `ResizeProcessor.limits`.
    public var limits: DecodeLimits {
        get { fill.limits }
        set { (fill.limits, fit.limits) = (newValue, newValue) }
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let sameOrientation = (image.width >= image.height) == (fill.size.width >= fill.size.height)
        return try (sameOrientation ? fill : fit).process(image)
    }
}
