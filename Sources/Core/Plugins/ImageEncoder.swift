import Foundation

/// Turns pixels into encoded bytes of one format.
public protocol ImageEncoder: Sendable {
    /// The format produced.
    var format: ImageFormat { get }
    /// Whether the format can hold an animation (every frame is written when `options.allFrames` is set).
    var supportsAnimation: Bool { get }

    /// Encodes `image` (its first frame, or all frames for animations when supported and asked for).
    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data
}

extension ImageEncoder {
    /// Encodes with default options.
    public func encode(_ image: DecodedImage) throws -> Data { try encode(image, options: .default) }
}
