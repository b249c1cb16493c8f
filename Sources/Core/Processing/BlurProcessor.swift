/// Blurs every frame with a Gaussian of standard deviation `sigma` pixels (0.3…100).
///
/// Three extended box passes each way (`Raster.boxBlurred`), the algorithm of Pillow's `GaussianBlur`: the cost
/// per pixel does not depend on sigma, and only the output raster (plus a few rows) is allocated. Images with
/// alpha are blurred in premultiplied alpha, so transparent pixels lend no colour.
public struct BlurProcessor: ImageProcessor {
    /// The allowed sigmas.
    public static let sigmaRange: ClosedRange<Double> = 0.3...100

    /// The standard deviation, in pixels.
    public let sigma: Double

    /// Creates a blur; a sigma outside 0.3…100 (or not a number) throws `processingFailed`.
    public init(sigma: Double) throws {
        guard Self.sigmaRange.contains(sigma) else {
            throw ImagoError(.processingFailed, "blur sigma \(sigma) is not within 0.3…100")
        }
        self.sigma = sigma
    }

    /// `blur(SIGMA)`.
    public var identifier: String { "blur(\(sigma))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try image.mappingRasters { try $0.boxBlurred(sigma: sigma, premultiply: image.hasAlpha) }
    }
}
