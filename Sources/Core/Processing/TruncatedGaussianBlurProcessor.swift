import Foundation

/// Blurs every frame with a Gaussian of `sigma` cut at `radius` pixels, as thumbor's `blur(RADIUS[,SIGMA])` does:
/// one horizontal and one vertical pass of the normalised kernel `e^(−x² / 2σ²)` for |x| ≤ radius, edges repeated,
/// each pass truncated to whole levels (`ConvolutionProcessor`'s arithmetic). The cut matters: thumbor's default
/// sigma is the radius, so its kernel stops at one sigma and blurs about half as wide as a full Gaussian of that
/// sigma (`BlurProcessor`). Alpha is blurred too for images with alpha, unpremultiplied, as thumbor does.
///
/// The work is `2 × (2 × radius + 1)` multiplications a channel and pixel; the radius is at most 150, as in thumbor,
/// and a pass may take at most `ConvolutionProcessor.maxWork` (a radius of 150 covers about 3 megapixels, one of 10
/// about 24), checked before it starts.
public struct TruncatedGaussianBlurProcessor: ImageProcessor {
    /// The widest radius (thumbor's `MAX_RADIUS`).
    public static let maxRadius = 150

    /// The kernel's half width, in pixels (1…150).
    public let radius: Int
    /// The Gaussian's standard deviation, in pixels.
    public let sigma: Double

    /// Creates the processor; a radius below 1 or a sigma that is not a positive number throws `processingFailed`.
    /// A radius above 150 is cut to 150 after the sigma is taken from it, as thumbor does.
    public init(radius: Int, sigma: Double? = nil) throws {
        guard radius >= 1 else { throw ImagoError(.processingFailed, "blur radius \(radius) is below 1") }
        let sigma = sigma ?? Double(radius)
        guard sigma.isFinite, sigma > 0, sigma <= 10_000 else {
            throw ImagoError(.processingFailed, "blur sigma \(sigma) is not within 0…10000")
        }
        (self.radius, self.sigma) = (min(radius, Self.maxRadius), sigma)
    }

    /// `gaussian-blur(RADIUS,SIGMA)`.
    public var identifier: String { "gaussian-blur(\(radius),\(sigma))" }

    /// The normalised one-dimensional kernel.
    var kernel: [Double] {
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = weights.reduce(0, +)
        return weights.map { $0 / sum }
    }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let kernel = self.kernel
        let channels = image.hasAlpha ? 4 : 3
        try ConvolutionProcessor.checkWork(
            width: image.width, height: image.height, taps: kernel.count, what: identifier)
        return try image.mappingRasters { raster in
            let across = try ConvolutionProcessor.convolve(
                raster, weights: kernel, columns: kernel.count, channels: channels)
            return try ConvolutionProcessor.convolve(across, weights: kernel, columns: 1, channels: channels)
        }
    }
}

extension TruncatedGaussianBlurProcessor: FrameWiseProcessing {
    /// Always: each frame is blurred on its own.
    public var processesFramesIndependently: Bool { true }
}
