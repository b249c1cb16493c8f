import Foundation

/// What an animation encoder is told before the first frame: the canvas every frame fills, the loop count, and
/// whether frames may have transparency (a format that keeps an alpha plane or a transparent palette entry
/// decides once, for the whole file).
public struct AnimationEncodingSettings: Sendable, Hashable {
    /// The size of every frame, in pixels.
    public var canvasSize: PixelSize
    /// How many times the animation plays (0: forever).
    public var loopCount: Int
    /// Whether any frame may have pixels that are not opaque; when false, alpha is not written.
    public var hasAlpha: Bool
    /// An ICC profile the frames' pixels are in, embedded where the format can hold one (nil: sRGB).
    public var iccProfile: Data?

    /// Creates settings.
    public init(canvasSize: PixelSize, loopCount: Int, hasAlpha: Bool, iccProfile: Data? = nil) {
        self.canvasSize = canvasSize
        self.loopCount = loopCount
        self.hasAlpha = hasAlpha
        self.iccProfile = iccProfile
    }
}

/// An animation being written one frame at a time: each frame is handed to the format's library as it comes, so
/// the memory held is the library's state and the compressed bytes so far, never the frames already added.
///
/// A session is used by one caller at a time (it is not `Sendable`); encode on a thread of your own, never the
/// cooperative pool.
public protocol AnimationFrameEncoder: AnyObject {
    /// Encodes the next frame (its raster must have the session's canvas size; its duration in seconds).
    func add(_ frame: ImageFrame) throws
    /// Ends the animation and returns the file; throws when no frame was added.
    func finish() throws -> Data
}

/// An encoder that writes an animation frame by frame (`makeAnimationEncoder`), the one path its all-frames
/// `encode` also takes.
public protocol AnimatedImageEncoding: ImageEncoder {
    /// A session writing an animation of `settings` with `options` (quality, lossless).
    func makeAnimationEncoder(_ settings: AnimationEncodingSettings, options: EncodeOptions) throws
        -> any AnimationFrameEncoder
}

extension AnimatedImageEncoding {
    /// Encodes every frame of `image` through one session: what an all-frames encode of an animation does.
    public func encodeFrames(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        let settings = AnimationEncodingSettings(
            canvasSize: PixelSize(width: image.width, height: image.height), loopCount: image.loopCount,
            hasAlpha: image.frames.contains { $0.raster.hasTransparency }, iccProfile: image.iccProfile)
        let session = try makeAnimationEncoder(settings, options: options)
        for frame in image.frames { try session.add(frame) }
        return try session.finish()
    }
}

/// Throws `encodingFailed` unless `frame` has the canvas size of the animation being written.
extension AnimationEncodingSettings {
    /// Checks that `frame` fills the canvas; an animation's frames all have one size.
    public func check(_ frame: ImageFrame, format: ImageFormat) throws {
        guard frame.raster.width == canvasSize.width, frame.raster.height == canvasSize.height else {
            throw ImagoError(
                .encodingFailed(format: format),
                "\(format): the frames of an animation must all be \(canvasSize), not "
                    + "\(frame.raster.width)x\(frame.raster.height)")
        }
    }
}
