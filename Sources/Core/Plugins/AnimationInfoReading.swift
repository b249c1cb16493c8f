import Foundation

/// What a file's structure says about its animation, read without decoding a pixel.
public struct AnimationInfo: Sendable, Hashable, Codable {
    /// The canvas every frame fills, in pixels.
    public var canvasSize: PixelSize
    /// The frames the file holds (1 for a still image).
    public var frameCount: Int
    /// How long one loop plays, in seconds, with the decoder's rule for tiny durations (0 for a still image).
    public var totalDuration: Double
    /// How many times the animation plays (0: forever; still images report 0).
    public var loopCount: Int

    /// Creates the description.
    public init(canvasSize: PixelSize, frameCount: Int, totalDuration: Double, loopCount: Int) {
        self.canvasSize = canvasSize
        self.frameCount = frameCount
        self.totalDuration = totalDuration
        self.loopCount = loopCount
    }

    /// Whether there is more than one frame.
    public var isAnimated: Bool { frameCount > 1 }
}

/// A decoder that can tell an animation's frame count, duration and loop count from the file's structure alone
/// (GIF's blocks, WebP's chunks, AVIF's boxes), so `imago info` and a conversion deciding whether to stream read
/// them without decoding. Only counters are kept, so a file announcing any number of frames allocates nothing
/// for them.
public protocol AnimationInfoReading: ImageDecoder {
    /// The animation's description; throws what `decode` would for a bad header or a canvas over `limits`.
    func animationInfo(_ data: Data, limits: DecodeLimits) throws -> AnimationInfo
}

extension PluginRegistry {
    /// `data`'s decoder and what the file's structure says, when `data` is an animation (more than one frame) whose
    /// decoder hands out frames on demand and reads the structure; nil otherwise (a still image, or a decoder that
    /// cannot). Nothing is decoded, but the structure is walked: call it off the cooperative pool.
    public func animation(in data: Data, limits: DecodeLimits) throws -> (
        decoder: any AnimatedImageDecoding, info: AnimationInfo
    )? {
        guard let decoder = try decoder(for: data, limits: limits) as? any AnimatedImageDecoding,
            let reader = decoder as? any AnimationInfoReading
        else { return nil }
        let info = try reader.animationInfo(data, limits: limits)
        return info.isAnimated ? (decoder, info) : nil
    }
}
