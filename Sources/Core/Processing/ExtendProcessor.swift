/// Places every frame on a canvas of exactly `width` × `height` filled with `background`, where `gravity` says
/// (an edge, a corner, the centre, or a focus point's fractions of the free space; `.smart` centres). An image
/// larger than the canvas along an axis is cut there, the same gravity choosing which part stays.
public struct ExtendProcessor: ImageProcessor {
    /// The canvas size, in pixels.
    public var width: Int, height: Int
    /// Where the image goes.
    public var gravity: Gravity
    /// The canvas colour, straight alpha.
    public var background: RGBA
    /// Bounds on the output, checked before allocating. Not part of `identifier`.
    public var limits: DecodeLimits = .default
    /// Moves the image from where `gravity` puts it (imgproxy's `extend:1:GRAVITY:X:Y`): pixels when a value's
    /// magnitude is 1 or more, else a fraction of the canvas's side, positive away from the edge the gravity
    /// names. (0, 0) by default.
    public var offset: (x: Double, y: Double) = (0, 0)

    /// Creates an extension to `width` × `height`; an empty size or a focus point outside 0…1 throws
    /// `processingFailed`.
    public init(width: Int, height: Int, gravity: Gravity = .center, background: RGBA = RGBA(255, 255, 255)) throws {
        self.width = width
        self.height = height
        self.gravity = gravity
        self.background = background
        try validate()
    }

    private func validate() throws {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImagoError(.processingFailed, "extend to an empty or too large size \(width)x\(height)")
        }
        try gravity.validate()
    }

    /// `extend(WxH,g=CODE,RRGGBBAA)`.
    public var identifier: String {
        let moved = offset == (0, 0) ? "" : ",off=\(offset.x):\(offset.y)"
        return "extend(\(width)x\(height),g=\(gravity.code),\(background.hex)\(moved))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try validate()
        if image.width == width, image.height == height { return image }
        try limits.checkGrowth(
            width: width, height: height, frames: image.frames.count, sourcePixels: image.width * image.height,
            what: "extend")
        let placed = gravity.placement(
            width: image.width, height: image.height, canvasWidth: width, canvasHeight: height)
        let shift = gravity.offsetShift(offset, side: (Double(width), Double(height)))
        let origin = (x: placed.x + Int(shift.x.rounded()), y: placed.y + Int(shift.y.rounded()))
        var result = try image.mappingRasters {
            try $0.placed(onCanvasOfWidth: width, height: height, x: origin.x, y: origin.y, background: background)
        }
        let covers =
            origin.x <= 0 && origin.y <= 0 && origin.x + image.width >= width
            && origin.y + image.height >= height
        result.hasAlpha = image.hasAlpha || (!covers && background.a < 255)
        return result
    }
}
