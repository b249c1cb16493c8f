import Foundation

/// How one format's output loses quality and gains bytes as its quality setting rises, calibrated on the photo set
/// (Docs/Quality.md): a quality search's first estimate and its later steps are read from these curves, and a
/// best-format choice predicts sizes and times from them.
///
/// Both curves are sampled at `qualities` (20, 25, …, 100) and read by linear interpolation. An image's DSSIM is
/// modelled as the format's curve moved up or down by an offset in ln DSSIM: before any encode the offset comes
/// from the image's complexity, after an encode from what was measured.
public struct QualityModel: Sendable, Hashable, Codable {
    /// The qualities the curves are sampled at.
    public static let qualities = Array(stride(from: 20, through: 100, by: 5))

    /// ln DSSIM at each of `qualities`, for an image of complexity 1 (`ImageComplexity`).
    public var logDSSIM: [Double]
    /// How much ln DSSIM rises per unit of ln complexity.
    public var complexityWeight: Double
    /// ln bytes per pixel at each of `qualities`, for a typical photo (only differences between qualities are used).
    public var logBytes: [Double]
    /// The CPU time of one encode per megapixel, in milliseconds, on the machine it was calibrated on.
    public var encodeMillisecondsPerMegapixel: Double

    /// Creates a model from its curves (`qualities.count` values each).
    public init(
        logDSSIM: [Double], complexityWeight: Double, logBytes: [Double], encodeMillisecondsPerMegapixel: Double
    ) {
        precondition(
            logDSSIM.count == Self.qualities.count && logBytes.count == Self.qualities.count,
            "a quality model has \(Self.qualities.count) points a curve")
        self.logDSSIM = logDSSIM
        self.complexityWeight = complexityWeight
        self.logBytes = logBytes
        self.encodeMillisecondsPerMegapixel = encodeMillisecondsPerMegapixel
    }

    /// The curve's ln DSSIM at `quality`.
    public func logDSSIM(at quality: Int) -> Double { Self.interpolate(logDSSIM, at: quality) }

    /// The curve's ln bytes at `quality`.
    public func logBytes(at quality: Int) -> Double { Self.interpolate(logBytes, at: quality) }

    /// The offset of an image of `complexity` from the curve, before anything is measured.
    public func offset(complexity: Double) -> Double { complexityWeight * log(max(complexity, 1e-3)) }

    /// The offset a measurement gives: what moves the curve through (`quality`, `dssim`).
    public func offset(quality: Int, dssim: Double) -> Double { log(max(dssim, 1e-6)) - logDSSIM(at: quality) }

    /// The expected CPU seconds of one encode of `pixels` pixels.
    public func expectedEncodeSeconds(pixels: Int) -> Double {
        encodeMillisecondsPerMegapixel * Double(pixels) / 1_000_000_000
    }

    private static func interpolate(_ curve: [Double], at quality: Int) -> Double {
        let position = Double(min(max(quality, qualities[0]), qualities[qualities.count - 1]) - qualities[0]) / 5
        let index = min(Int(position), curve.count - 2)
        let fraction = position - Double(index)
        return curve[index] + (curve[index + 1] - curve[index]) * fraction
    }
}
