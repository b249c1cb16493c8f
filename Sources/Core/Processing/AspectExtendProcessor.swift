/// Extends every frame to the smallest canvas of an aspect ratio that holds it, filled with `background` where
/// `gravity` leaves room (imgproxy's `extend_aspect_ratio:1:GRAVITY` with the ratio of the requested size): a
/// 400×300 image extended to 1:1 is 400×400. Canvas sides are rounded to nearest; an image already of the ratio
/// is left as it is.
public struct AspectExtendProcessor: ImageProcessor {
    /// The ratio's width and height (for example the requested size).
    public let aspectWidth: Int, aspectHeight: Int
    /// Where the image goes on the canvas.
    public let gravity: Gravity
    /// The canvas colour, straight alpha.
    public let background: RGBA
    /// Bounds on the canvas, checked before allocating. Not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// Creates the processor; a ratio side below 1 or a focus point outside 0…1 throws `processingFailed`.
    public init(aspectWidth: Int, aspectHeight: Int, gravity: Gravity = .center, background: RGBA) throws {
        guard aspectWidth > 0, aspectHeight > 0 else {
            throw ImagoError(.processingFailed, "extend to an empty aspect ratio \(aspectWidth):\(aspectHeight)")
        }
        try gravity.validate()
        (self.aspectWidth, self.aspectHeight, self.gravity, self.background) =
            (aspectWidth, aspectHeight, gravity, background)
    }

    /// `extend-aspect(W:H,g=CODE,RRGGBBAA)`.
    public var identifier: String {
        "extend-aspect(\(aspectWidth):\(aspectHeight),g=\(gravity.code),\(background.hex))"
    }

    /// The canvas for a `width` × `height` image.
    func canvas(width: Int, height: Int) -> (width: Int, height: Int) {
        let ratio = Double(aspectWidth) / Double(aspectHeight)
        if Double(width) / Double(height) > ratio {
            return (width, max(height, Int((Double(width) / ratio).rounded())))
        }
        return (max(width, Int((Double(height) * ratio).rounded())), height)
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let size = canvas(width: image.width, height: image.height)
        var extend = try ExtendProcessor(
            width: size.width, height: size.height, gravity: gravity, background: background)
        extend.limits = limits
        return try extend.process(image)
    }
}

extension AspectExtendProcessor: FrameWiseProcessing {
    /// Always: each frame gets the same canvas.
    public var processesFramesIndependently: Bool { true }
}
