/// Scales every pixel's distance from its perceived brightness `p = √(0.299 r² + 0.587 g² + 0.114 b²)` by `factor`:
/// thumbor's `saturation(N)` (0 greys the image, 1 keeps it, 2 doubles the saturation; negative values invert the
/// colours around the grey). Computed in single precision and truncated, as thumbor's filter does, so the results
/// are its own. Alpha is kept.
public struct SaturationProcessor: ImageProcessor {
    /// The allowed factors.
    public static let factorRange: ClosedRange<Double> = -100...100

    /// How far from grey each channel moves: 1 keeps the image.
    public let factor: Double

    /// Creates the processor; a factor outside −100…100 (or not a number) throws `processingFailed`.
    public init(factor: Double) throws {
        guard Self.factorRange.contains(factor) else {
            throw ImagoError(.processingFailed, "saturation \(factor) is not within -100…100")
        }
        self.factor = factor
    }

    /// `saturation(F)`.
    public var identifier: String { "saturation(\(factor))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard factor != 1 else { return image }
        let change = Float(factor)
        return try image.mappingRasters { raster in
            try raster.mappingPixels { pixels, offset in
                let (r, g, b) = (Double(pixels[offset]), Double(pixels[offset + 1]), Double(pixels[offset + 2]))
                let grey = Float((r * r * 0.299 + g * g * 0.587 + b * b * 0.114).squareRoot())
                for channel in 0..<3 {
                    let value = grey + (Float(pixels[offset + channel]) - grey) * change
                    pixels[offset + channel] = UInt8(clamping: Int(value.rounded(.towardZero)))
                }
            }
        }
    }
}

extension SaturationProcessor: FrameWiseProcessing {
    /// Always: each frame is mapped alike.
    public var processesFramesIndependently: Bool { true }
}
