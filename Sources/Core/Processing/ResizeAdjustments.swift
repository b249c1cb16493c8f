/// What the URL grammars ask of a resize beyond its size, mode and gravity; everything is off by default, and only
/// what is set changes `ResizeProcessor`'s plan and identifier.
///
/// - `clampsTargetToImage`: each side of the target is first cut to the image's (thumbor's `no_upscale()`, and
///   imgproxy's `fill` without `enlarge`): a 1000×1000 fill of a 200×150 image is 200×150, where a plain resize
///   without upscaling cuts a 150×150 square.
/// - `focalRegions`: rectangles in pixels of the image the resize receives (thumbor's `focal(LxT:RxB)`); a fill
///   centres its window on their centre of mass (each weighs its area; centres and the mean rounded down, as
///   thumbor computes them). Regions whose centre is outside the image are ignored; without any, the gravity
///   applies.
/// - `zoom`: factors along x and y applied to the scale the resize computes (imgproxy's `zoom`); a fill still
///   outputs the target, showing less of the image.
/// - `minimumWidth`, `minimumHeight`: the scaled image is enlarged, keeping the ratio of the two scales, until it
///   is at least this wide or tall, even without upscaling (imgproxy's `min-width`, `min-height`); a fill still
///   crops to the target.
/// - `usesSourceWidth`, `usesSourceHeight`: that side of the target is the image's own, whatever the size says
///   (thumbor's `orig` beside a number: `origx100`).
/// - `roundsSidesDown`: output sides are rounded down instead of to nearest (thumbor truncates the side it computes
///   for `0x350` and in `upscale()`: 262.5 is 262).
/// - `roundsEnlargedSidesDown`: a fit's sides are rounded down when it enlarges, and to nearest when it shrinks
///   (thumbor's `upscale()` after `fit-in`: 799.5 is 799, where a fit-in that shrinks rounds).
/// - `cropsWholePixels`: a fill cuts a window of whole pixels placed as thumbor's transformer places it (its size
///   rounded, half to even, the longer side ceiled first; its origin the focal centre, or the alignment's point
///   rounded down, minus half the window, rounded half to even and kept inside), then scales that window;
///   without it the window may start between pixels. A window within 0.01 of the image's aspect ratio is the
///   whole image, as thumbor leaves it uncut.
/// - `offset`: moves a fill's window from where the gravity puts it (imgproxy's gravity offsets): pixels of the
///   output when a value's magnitude is 1 or more, else a fraction of the scaled image's side; positive values
///   move away from the edge the gravity names (rightwards for west and the centre, leftwards for east),
///   clamped to the image. A focus point or smart gravity ignores it.
public struct ResizeAdjustments: Sendable, Hashable {
    /// A rectangle in pixels.
    public struct Region: Sendable, Hashable {
        public var x: Int, y: Int, width: Int, height: Int
        /// A rectangle of `width` × `height` at (`x`, `y`).
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// Whether each side of the target is cut to the image's first.
    public var clampsTargetToImage = false
    /// Whether output sides are rounded down.
    public var roundsSidesDown = false
    /// Whether a fit that enlarges rounds its sides down.
    public var roundsEnlargedSidesDown = false
    /// Whether a fill's window is whole pixels, placed as thumbor places it.
    public var cropsWholePixels = false
    /// Whether the target's width, or height, is the image's own.
    public var usesSourceWidth = false, usesSourceHeight = false
    /// Rectangles a fill's window is centred on.
    public var focalRegions: [Region] = []
    /// Factors on the computed scale, along x and y.
    public var zoom: (x: Double, y: Double) = (1, 1)
    /// The least width and height of the scaled image (0: none).
    public var minimumWidth = 0, minimumHeight = 0
    /// A fill window's offset from its gravity's position.
    public var offset: (x: Double, y: Double) = (0, 0)

    /// No adjustment.
    public init() {}

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// Throws `processingFailed` for a zoom outside 0.0001…100, a negative minimum or offset that is not a number,
    /// or a focal region without area.
    public func validate() throws {
        guard (0.0001...100).contains(zoom.x), (0.0001...100).contains(zoom.y) else {
            throw ImagoError(.processingFailed, "zoom \(zoom.x)x\(zoom.y) is not within 0.0001…100")
        }
        guard minimumWidth >= 0, minimumHeight >= 0, minimumWidth <= 1_000_000, minimumHeight <= 1_000_000 else {
            throw ImagoError(
                .processingFailed, "minimum sizes \(minimumWidth)x\(minimumHeight) are not within 0…1000000")
        }
        guard offset.x.isFinite, offset.y.isFinite else {
            throw ImagoError(.processingFailed, "gravity offsets must be numbers")
        }
        for region in focalRegions where region.width <= 0 || region.height <= 0 {
            throw ImagoError(.processingFailed, "a focal region of \(region.width)x\(region.height) has no area")
        }
    }

    /// Whether nothing is adjusted.
    public var isEmpty: Bool { identifier.isEmpty }

    /// Whether the resize must see the source's own pixels, not a reduced decode: focal regions and `orig` sides are
    /// in them, thumbor's window is cut from them, sides rounded down are computed from them (a reduced decode's
    /// size is not exactly the source's over the reduction), and a zoom or minimum side may ask for more than the
    /// target.
    public var needsFullSizeImage: Bool {
        !focalRegions.isEmpty || usesSourceWidth || usesSourceHeight || cropsWholePixels || roundsSidesDown
            || roundsEnlargedSidesDown || zoom != (1, 1) || minimumWidth > 0 || minimumHeight > 0
    }

    /// What the identifier of a resize adds (empty when nothing is set): `,clamp`, `,focal=X:Y:WxH;…`,
    /// `,zoom=XxY`, `,min=WxH`, `,off=X:Y`.
    public var identifier: String {
        var parts: [String] = []
        if clampsTargetToImage { parts.append("clamp") }
        if roundsSidesDown { parts.append("floor") }
        if roundsEnlargedSidesDown { parts.append("floorup") }
        if cropsWholePixels { parts.append("whole") }
        if usesSourceWidth || usesSourceHeight {
            parts.append("orig=" + (usesSourceWidth ? "w" : "") + (usesSourceHeight ? "h" : ""))
        }
        if !focalRegions.isEmpty {
            parts.append(
                "focal=" + focalRegions.map { "\($0.x):\($0.y):\($0.width)x\($0.height)" }.joined(separator: ";"))
        }
        if zoom != (1, 1) { parts.append("zoom=\(zoom.x)x\(zoom.y)") }
        if minimumWidth > 0 || minimumHeight > 0 { parts.append("min=\(minimumWidth)x\(minimumHeight)") }
        if offset != (0, 0) { parts.append("off=\(offset.x):\(offset.y)") }
        return parts.map { "," + $0 }.joined()
    }

    /// The target for a `width` × `height` image.
    func target(_ size: PixelSize, width: Int, height: Int) -> (width: Double, height: Double) {
        var target = (width: usesSourceWidth ? width : size.width, height: usesSourceHeight ? height : size.height)
        if clampsTargetToImage { target = (min(target.width, width), min(target.height, height)) }
        return (Double(target.width), Double(target.height))
    }

    /// The scales along x and y from the resize's own `scale`: zoomed, cut to 1 without `upscale`, then raised to
    /// the minimum sizes.
    func scales(_ scale: Double, width: Int, height: Int, upscale: Bool) -> (x: Double, y: Double) {
        var (x, y) = (scale * zoom.x, scale * zoom.y)
        if !upscale, max(x, y) > 1 {
            let largest = max(x, y)
            (x, y) = (x / largest, y / largest)
        }
        if minimumWidth > 0, Double(width) * x < Double(minimumWidth) {
            let factor = Double(minimumWidth) / (Double(width) * x)
            (x, y) = (x * factor, y * factor)
        }
        if minimumHeight > 0, Double(height) * y < Double(minimumHeight) {
            let factor = Double(minimumHeight) / (Double(height) * y)
            (x, y) = (x * factor, y * factor)
        }
        return (x, y)
    }

    /// The gravity a fill of a `width` × `height` image uses: the focal regions' centre of mass as a focus point,
    /// when one lies inside, else `gravity`.
    func gravity(_ gravity: Gravity, width: Int, height: Int) -> Gravity {
        let inside = focalRegions.filter { region in
            let (x, y) = (region.x + region.width / 2, region.y + region.height / 2)
            return (0...width).contains(x) && (0...height).contains(y)
        }
        guard !inside.isEmpty, width > 0, height > 0 else { return gravity }
        var (total, sumX, sumY) = (0.0, 0.0, 0.0)
        for region in inside {
            let weight = Double(region.width * region.height)
            total += weight
            sumX += Double(region.x + region.width / 2) * weight
            sumY += Double(region.y + region.height / 2) * weight
        }
        return .focusPoint(
            x: (sumX / total).rounded(.down) / Double(width), y: (sumY / total).rounded(.down) / Double(height))
    }

    /// A side of `value` pixels as a whole number: rounded down (with a margin for the last bit of a product)
    /// or to nearest; `enlarging` says whether a fit's scale is above 1.
    func side(_ value: Double, enlarging: Bool = false) -> Double {
        roundsSidesDown || (enlarging && roundsEnlargedSidesDown) ? (value + 1e-9).rounded(.down) : value.rounded()
    }

    /// thumbor's auto-crop window for a `target` fill of a `width` × `height` image.
    func wholePixelWindow(
        target: (width: Double, height: Double), width: Int, height: Int, gravity: Gravity
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        let (w, h) = (Double(width), Double(height))
        let (tw, th) = (max(target.width, 1), max(target.height, 1))
        func ratio(_ value: Double) -> Double { (value * 100).rounded(.toNearestOrEven) / 100 }
        guard ratio(w / h) != ratio(tw / th) else { return (0, 0, width, height) }
        let (windowWidth, windowHeight) =
            tw / w > th / h
            ? (width, Int((w * th / tw).rounded(.toNearestOrEven)))
            : (Int((tw * h / th).rounded(.up).rounded(.toNearestOrEven)), height)
        let focus: (x: Double, y: Double)
        switch gravity {
        case .focusPoint(let x, let y): focus = ((x * w).rounded(), (y * h).rounded())
        default: focus = ((gravity.anchor.x * w).rounded(.down), (gravity.anchor.y * h).rounded(.down))
        }
        func origin(_ centre: Double, _ window: Int, _ side: Int) -> Int {
            Int(min(max(centre - Double(window) / 2, 0), Double(side - window)).rounded(.toNearestOrEven))
        }
        let (clampedWidth, clampedHeight) = (min(windowWidth, width), min(windowHeight, height))
        return (
            origin(focus.x, clampedWidth, width), origin(focus.y, clampedHeight, height), clampedWidth,
            clampedHeight
        )
    }

    /// The offset of a fill's window origin, in pixels of the source, for `gravity` and scales `scaleX`, `scaleY`
    /// of a `width` × `height` source (output pixels are 1 / scale source pixels; fractions are of the side).
    func originShift(
        for gravity: Gravity, scaleX: Double, scaleY: Double, width: Int, height: Int
    ) -> (x: Double, y: Double) {
        guard offset != (0, 0) else { return (0, 0) }
        return gravity.offsetShift(
            offset, pixelScale: (1 / scaleX, 1 / scaleY), side: (Double(width), Double(height)))
    }
}

extension ResizeProcessor {
    /// The plan when `adjustments` are set: the target (clamped or not) gives a scale, which the adjustments zoom,
    /// limit to 1 without `upscale` and raise to the minimum sizes; a fit outputs the scaled image, a fill the
    /// target cut to the scaled image, its window placed by the gravity (or the focal regions) and the offset.
    func adjustedPlan(width: Int, height: Int, raster: Raster?) -> Plan {
        let (w, h) = (Double(width), Double(height))
        let target = adjustments.target(size, width: width, height: height)
        let base =
            contentMode == .fit ? min(target.width / w, target.height / h) : max(target.width / w, target.height / h)
        let scale = adjustments.scales(base, width: width, height: height, upscale: upscale)
        let enlarging = contentMode == .fit && max(scale.x, scale.y) > 1
        let scaledWidth = max(1, Int(adjustments.side(w * scale.x, enlarging: enlarging)))
        let scaledHeight = max(1, Int(adjustments.side(h * scale.y, enlarging: enlarging)))
        guard contentMode == .fill else {
            let identity = scaledWidth == width && scaledHeight == height
            return Plan(
                sourceRect: (0, 0, w, h), outputWidth: scaledWidth, outputHeight: scaledHeight, isIdentity: identity)
        }
        let outputWidth = max(1, min(Int(adjustments.side(target.width)), scaledWidth))
        let outputHeight = max(1, min(Int(adjustments.side(target.height)), scaledHeight))
        if adjustments.cropsWholePixels {
            let window = adjustments.wholePixelWindow(
                target: target, width: width, height: height,
                gravity: adjustments.gravity(self.gravity, width: width, height: height))
            let identity = outputWidth == width && outputHeight == height && window.width == width
            return Plan(
                sourceRect: (Double(window.x), Double(window.y), Double(window.width), Double(window.height)),
                outputWidth: outputWidth, outputHeight: outputHeight, isIdentity: identity && window.height == height)
        }
        let window = (width: min(w, Double(outputWidth) / scale.x), height: min(h, Double(outputHeight) / scale.y))
        let gravity = adjustments.gravity(self.gravity, width: width, height: height)
        var origin = gravity.windowOrigin(window: window, width: width, height: height, raster: raster)
        let shift = adjustments.originShift(
            for: gravity, scaleX: scale.x, scaleY: scale.y, width: width, height: height)
        origin.x = min(max(origin.x + shift.x, 0), w - window.width)
        origin.y = min(max(origin.y + shift.y, 0), h - window.height)
        let identity = outputWidth == width && outputHeight == height && origin.x == 0 && origin.y == 0
        return Plan(
            sourceRect: (origin.x, origin.y, window.width, window.height), outputWidth: outputWidth,
            outputHeight: outputHeight, isIdentity: identity)
    }
}
