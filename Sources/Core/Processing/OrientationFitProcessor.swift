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
        /// thumbor's `adaptive-full-fit-in`: `.outside`, the target's sides swapped when the image and the target
        /// have opposite orientations (as `.adaptive` swaps them).
        case adaptiveOutside = "adaptive-outside"
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
    /// What the chosen resize adjusts beyond its size (`ResizeProcessor.adjustments`); none by default.
    public var adjustments = ResizeAdjustments()

    /// Creates the processor for a `width` × `height` target.
    public init(rule: Rule = .auto, width: Int, height: Int, upscale: Bool = false, gravity: Gravity = .center) {
        (self.rule, self.size, self.upscale, self.gravity) =
            (rule, PixelSize(width: width, height: height), upscale, gravity)
    }

    /// `resize(WxH,RULE,upscale|noupscale,lanczos3)`, with `,g=CODE` when `.auto`'s gravity is not the centre and
    /// the adjustments' part (`ResizeAdjustments.identifier`) when any is set.
    public var identifier: String {
        let placed = rule == .auto && gravity != .center ? ",g=\(gravity.code)" : ""
        return
            "resize(\(size),\(rule.rawValue),\(upscale ? "upscale" : "noupscale"),lanczos3\(placed)"
            + "\(adjustments.identifier))"
    }

    /// The resize chosen for a `width` × `height` image. The adjustments that change the target apply to the box
    /// before the rule reads it: a side taken from the image is its own, and a clamped box is cut to the image (as
    /// thumbor's `no_upscale()` cuts the size before `full-fit-in` covers it).
    public func resize(forWidth width: Int, height: Int) -> ResizeProcessor {
        let target = adjustments.target(size, width: width, height: height)
        let (targetWidth, targetHeight) = (Int(target.width), Int(target.height))
        var chosen: ResizeProcessor
        switch rule {
        case .auto:
            let same = (width >= height) == (targetWidth >= targetHeight)
            chosen = ResizeProcessor(
                width: targetWidth, height: targetHeight, mode: same ? .fill : .fit, upscale: upscale,
                gravity: same ? gravity : .center)
        case .adaptive, .adaptiveOutside:
            let opposite =
                (width < height && targetWidth > targetHeight) || (width > height && targetWidth < targetHeight)
            let (boxWidth, boxHeight) = opposite ? (targetHeight, targetWidth) : (targetWidth, targetHeight)
            chosen =
                rule == .adaptive
                ? ResizeProcessor(width: boxWidth, height: boxHeight, mode: .fit, upscale: upscale)
                : Self.covering(
                    width: width, height: height, boxWidth: boxWidth, boxHeight: boxHeight, upscale: upscale)
        case .outside:
            chosen = Self.covering(
                width: width, height: height, boxWidth: targetWidth, boxHeight: targetHeight, upscale: upscale)
        }
        chosen.limits = limits
        chosen.adjustments = adjustments
        (chosen.adjustments.usesSourceWidth, chosen.adjustments.usesSourceHeight) = (false, false)
        chosen.adjustments.clampsTargetToImage = false
        return chosen
    }

    /// The resize of a `width` × `height` image covering a `boxWidth` × `boxHeight` box: fitting one side to it,
    /// the other side left free.
    private static func covering(width: Int, height: Int, boxWidth: Int, boxHeight: Int, upscale: Bool)
        -> ResizeProcessor
    {
        let widthBound = width * boxHeight <= height * boxWidth
        let free = Int(Int32.max)
        return ResizeProcessor(
            width: widthBound ? boxWidth : free, height: widthBound ? free : boxHeight, mode: .fit, upscale: upscale)
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try resize(forWidth: image.width, height: image.height).process(image)
    }
}
