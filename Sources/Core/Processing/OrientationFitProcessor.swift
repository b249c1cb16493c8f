/// A resize whose kind is chosen from the image it receives, by one of three rules the foreign URL grammars need
/// (issue 26). The choice is made on the image as the processor gets it, so a rotated or reduced source chooses as
/// its pixels show; the resizing itself is `ResizeProcessor`'s.
public struct OrientationFitProcessor: ImageProcessor {
    /// How the resize is chosen.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// imgproxy's `auto`: `.fill` when the image and the target share an orientation (landscape and square
        /// count as one: width ≥ height), else `.fit`.
        case auto
        /// thumbor's `adaptive-fit-in`: `.fit` inside the target, its sides swapped when the image and the target
        /// have opposite orientations (portrait against landscape; squares never swap).
        case adaptive
        /// thumbor's `full-fit-in`: scaled to cover the target, keeping the aspect ratio, nothing cropped (the result
        /// is at least the target on both sides).
        case outside
    }

    /// How the resize is chosen.
    public let rule: Rule
    /// The target.
    public let size: PixelSize
    /// Whether smaller images are enlarged.
    public let upscale: Bool
    /// Where `.auto`'s fill window is placed.
    public let gravity: Gravity
    /// Bounds on the output, as `ResizeProcessor.limits`; not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// Creates the processor for a `width` × `height` target.
    public init(rule: Rule = .auto, width: Int, height: Int, upscale: Bool = false, gravity: Gravity = .center) {
        (self.rule, self.size, self.upscale, self.gravity) =
            (rule, PixelSize(width: width, height: height), upscale, gravity)
    }

    /// `resize(WxH,RULE,upscale|noupscale,lanczos3)`, with `,g=CODE` when `.auto`'s gravity is not the centre.
    public var identifier: String {
        let placed = rule == .auto && gravity != .center ? ",g=\(gravity.code)" : ""
        return "resize(\(size),\(rule.rawValue),\(upscale ? "upscale" : "noupscale"),lanczos3\(placed))"
    }

    /// The resize chosen for a `width` × `height` image.
    public func resize(forWidth width: Int, height: Int) -> ResizeProcessor {
        let (targetWidth, targetHeight) = (size.width, size.height)
        var chosen: ResizeProcessor
        switch rule {
        case .auto:
            let same = (width >= height) == (targetWidth >= targetHeight)
            chosen = ResizeProcessor(
                width: targetWidth, height: targetHeight, mode: same ? .fill : .fit, upscale: upscale,
                gravity: same ? gravity : .center)
        case .adaptive:
            let opposite =
                (width < height && targetWidth > targetHeight) || (width > height && targetWidth < targetHeight)
            chosen = ResizeProcessor(
                width: opposite ? targetHeight : targetWidth, height: opposite ? targetWidth : targetHeight,
                mode: .fit, upscale: upscale)
        case .outside:
            // Covering the box is fitting one side to it, the other side left free.
            let widthBound = width * targetHeight <= height * targetWidth
            let free = Int(Int32.max)
            chosen = ResizeProcessor(
                width: widthBound ? targetWidth : free, height: widthBound ? free : targetHeight, mode: .fit,
                upscale: upscale)
        }
        chosen.limits = limits
        return chosen
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try resize(forWidth: image.width, height: image.height).process(image)
    }
}
