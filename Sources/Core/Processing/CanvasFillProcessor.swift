/// Places every frame centred on a canvas of `width` × `height` (each side the frame's own when nil), the free
/// space filled with a colour, the frame's mean colour, or a blurred copy of the frame stretched over the canvas:
/// thumbor's `fill(COLOUR|auto|blur[,FILL_TRANSPARENT])` after `fit-in`. The frame goes at `((W − w) / 2,
/// (H − h) / 2)`, rounded down. Its own transparent areas stay transparent unless `fillsTransparency`, which
/// composites it over the fill first.
///
/// `blur` stands in for thumbor's Gaussian of radius and sigma 50 cut at one sigma by a Gaussian of sigma 27 (the
/// cut kernel's spread), blurred by `BlurProcessor` and resampled to the canvas by `ResizeFilter.catmullRom`.
public struct CanvasFillProcessor: ImageProcessor {
    /// What fills the canvas.
    public enum Fill: Sendable, Hashable {
        /// One colour (straight alpha).
        case colour(RGBA)
        /// The mean of the frame's colour channels (transparent pixels included, as thumbor counts them), opaque.
        case average
        /// The frame blurred and stretched over the canvas.
        case blur
    }

    /// The canvas, in pixels; nil keeps the frame's side.
    public let width: Int?, height: Int?
    /// What fills it.
    public let fill: Fill
    /// Whether the frame's transparent areas take the fill too.
    public let fillsTransparency: Bool
    /// Bounds on the canvas, checked before allocating. Not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// The sigma `blur` uses.
    static let blurSigma = 27.0

    /// Creates the processor; a side below 1 or above 100 000 throws `processingFailed`.
    public init(width: Int?, height: Int?, fill: Fill, fillsTransparency: Bool = false) throws {
        for side in [width, height].compactMap({ $0 }) where !(1...100_000).contains(side) {
            throw ImagoError(.processingFailed, "fill: a canvas side of \(side) is not within 1…100000")
        }
        (self.width, self.height, self.fill, self.fillsTransparency) = (width, height, fill, fillsTransparency)
    }

    /// `fill(WxH,COLOUR|auto|blur,merge|keep)`, `-` for a side kept.
    public var identifier: String {
        let fill =
            switch self.fill {
            case .colour(let colour): colour.hex
            case .average: "auto"
            case .blur: "blur"
            }
        return
            "fill(\(width.map(String.init) ?? "-")x\(height.map(String.init) ?? "-"),\(fill),"
            + "\(fillsTransparency ? "merge" : "keep"))"
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let canvasWidth = width ?? image.width
        let canvasHeight = height ?? image.height
        try limits.checkGrowth(
            width: canvasWidth, height: canvasHeight, frames: image.frames.count,
            sourcePixels: image.width * image.height, what: "fill")
        var result = image
        result.frames = try image.frames.map { frame in
            let still = DecodedImage(
                frames: [frame], format: image.format, hasAlpha: image.hasAlpha, encodedSize: image.encodedSize)
            let filled = try filledFrame(still, width: canvasWidth, height: canvasHeight)
            return ImageFrame(raster: filled.raster, duration: frame.duration)
        }
        result.hasAlpha = result.frames.contains { $0.raster.hasTransparency }
        return result
    }

    /// One frame on its canvas.
    private func filledFrame(_ frame: DecodedImage, width: Int, height: Int) throws -> DecodedImage {
        switch fill {
        case .colour(let colour):
            return try placed(frame, on: colour, width: width, height: height)
        case .average:
            return try placed(frame, on: frame.raster.meanColour, width: width, height: height)
        case .blur:
            var stretch = StretchProcessor(width: width, height: height, upscale: true)
            stretch.limits = limits
            let canvas = try stretch.process(try BlurProcessor(sigma: Self.blurSigma).process(frame))
            let origin = Gravity.center.placement(
                width: frame.width, height: frame.height, canvasWidth: width, canvasHeight: height)
            return try canvas.mappingRasters {
                try $0.pasting(frame.raster, x: origin.x, y: origin.y, over: fillsTransparency)
            }
        }
    }

    /// `frame` on a canvas of `colour`: composited over it first when `fillsTransparency`.
    private func placed(_ frame: DecodedImage, on colour: RGBA, width: Int, height: Int) throws -> DecodedImage {
        let top = fillsTransparency ? try FlattenProcessor(background: colour).process(frame) : frame
        var extend = try ExtendProcessor(width: width, height: height, gravity: .center, background: colour)
        extend.limits = limits
        return try extend.process(top)
    }
}

extension Raster {
    /// The mean of the colour channels over every pixel (alpha ignored), rounded down, as an opaque colour.
    var meanColour: RGBA {
        var sums = (0, 0, 0)
        withUnsafeBytes { bytes in
            for y in 0..<height {
                var offset = y * bytesPerRow
                for _ in 0..<width {
                    sums.0 += Int(bytes[offset])
                    sums.1 += Int(bytes[offset + 1])
                    sums.2 += Int(bytes[offset + 2])
                    offset += 4
                }
            }
        }
        let count = width * height
        return RGBA(UInt8(sums.0 / count), UInt8(sums.1 / count), UInt8(sums.2 / count))
    }

    /// A copy with `top` drawn at (`x`, `y`) (clipped): its pixels replace these, or with `over` are composited over
    /// them.
    func pasting(_ top: Raster, x: Int, y: Int, over: Bool) throws -> Raster {
        try withUnsafeBytes { base in
            try top.withUnsafeBytes { source in
                try Raster(width: width, height: height) { target in
                    let rowBytes = width * 4
                    copyRows(from: base, into: target)
                    for row in stride(from: max(0, y), to: min(height, y + top.height), by: 1) {
                        for column in stride(from: max(0, x), to: min(width, x + top.width), by: 1) {
                            let to = row * rowBytes + column * 4
                            let from = (row - y) * top.bytesPerRow + (column - x) * 4
                            let below = RGBA(target[to], target[to + 1], target[to + 2], target[to + 3])
                            for channel in 0..<4 { target[to + channel] = source[from + channel] }
                            if over { FlattenProcessor.composite(target, to, over: below) }
                        }
                    }
                }
            }
        }
    }
}

extension CanvasFillProcessor: FrameWiseProcessing {
    /// Always: each frame is placed alike (the mean colour and the blur are each frame's own).
    public var processesFramesIndependently: Bool { true }
}
