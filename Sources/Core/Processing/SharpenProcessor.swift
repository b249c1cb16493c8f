/// Sharpens every frame with an unsharp mask: the image minus a Gaussian blur of `sigma` pixels (0.3…10) is added
/// back at 150 %, where a channel differs from its blur by more than 3 levels (Pillow's `UnsharpMask` defaults, so
/// flat areas and their faint noise are left alone).
///
/// The blur is `BlurProcessor`'s (premultiplied for images with alpha); the colour channels are sharpened in
/// straight alpha and alpha is kept as it is. Allocates only the output raster.
public struct SharpenProcessor: ImageProcessor {
    /// The allowed sigmas.
    public static let sigmaRange: ClosedRange<Double> = 0.3...10
    /// How much of the difference from the blur is added, in percent.
    public static let amount = 150
    /// Differences of at most this many levels are left alone.
    public static let threshold = 3

    /// The blur's standard deviation, in pixels.
    public let sigma: Double

    /// Creates a sharpening; a sigma outside 0.3…10 (or not a number) throws `processingFailed`.
    public init(sigma: Double) throws {
        guard Self.sigmaRange.contains(sigma) else {
            throw ImagoError(.processingFailed, "sharpen sigma \(sigma) is not within 0.3…10")
        }
        self.sigma = sigma
    }

    /// `sharpen(SIGMA)`.
    public var identifier: String { "sharpen(\(sigma))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try image.mappingRasters { raster in
            try raster.boxBlurred(sigma: sigma, premultiply: image.hasAlpha) { blurred, source, count in
                for x in 0..<count {
                    let offset = x * 4
                    for channel in 0..<3 {
                        let original = Int(source[offset + channel])
                        let difference = original - Int(blurred[offset + channel])
                        blurred[offset + channel] =
                            abs(difference) > Self.threshold
                            ? UInt8(min(255, max(0, original + difference * Self.amount / 100))) : UInt8(original)
                    }
                    blurred[offset + 3] = source[offset + 3]
                }
            }
        }
    }
}
