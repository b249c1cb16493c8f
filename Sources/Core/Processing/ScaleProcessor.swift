/// Scales every frame by a factor along each axis: thumbor's `proportion(F)` (both axes, the new sides rounded
/// down, as thumbor truncates them) and imgproxy's `zoom:X[:Y]` without a size (sides rounded to nearest). A side
/// that would fall below 1 pixel leaves the image as it is, as thumbor does.
public struct ScaleProcessor: ImageProcessor {
    /// How a scaled side becomes whole pixels.
    public enum Rounding: String, Sendable, Hashable {
        /// Down (thumbor's `int()`).
        case down
        /// To nearest (libvips's).
        case nearest
    }

    /// The allowed factors.
    public static let factorRange: ClosedRange<Double> = 0.0001...100

    /// The factors along x and y.
    public let x: Double, y: Double
    /// How sides are rounded.
    public let rounding: Rounding
    /// The resampling filter.
    public var filter: ResizeFilter = .catmullRom
    /// Bounds on an enlarged output, checked before resampling. Not part of `identifier`.
    public var limits: DecodeLimits = .default

    /// Creates the processor; a factor outside 0.0001…100 (or not a number) throws `processingFailed`.
    public init(x: Double, y: Double, rounding: Rounding = .nearest) throws {
        guard Self.factorRange.contains(x), Self.factorRange.contains(y) else {
            throw ImagoError(.processingFailed, "scale \(x)x\(y) is not within 0.0001…100")
        }
        (self.x, self.y, self.rounding) = (x, y, rounding)
    }

    /// `scale(XxY,down|nearest,FILTER)`.
    public var identifier: String { "scale(\(x)x\(y),\(rounding.rawValue),\(filter.rawValue))" }

    /// The output size for a `width` × `height` image, nil when a side would fall below 1.
    func outputSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        let round: (Double) -> Double = rounding == .down ? { $0.rounded(.down) } : { $0.rounded() }
        let (newWidth, newHeight) = (round(Double(width) * x), round(Double(height) * y))
        guard newWidth >= 1, newHeight >= 1, newWidth < Double(Int32.max), newHeight < Double(Int32.max) else {
            return nil
        }
        return (Int(newWidth), Int(newHeight))
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard let size = outputSize(width: image.width, height: image.height),
            size.width != image.width || size.height != image.height
        else { return image }
        var stretch = StretchProcessor(width: size.width, height: size.height, upscale: true, filter: filter)
        stretch.limits = limits
        return try stretch.process(image)
    }
}

extension ScaleProcessor: FrameWiseProcessing {
    /// Always: each frame is scaled alike.
    public var processesFramesIndependently: Bool { true }
}
