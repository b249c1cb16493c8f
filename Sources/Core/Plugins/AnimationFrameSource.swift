import Foundation

/// An animation decoded as it plays: composited frames handed out in order, one at a time, keeping only what
/// composition needs (the canvas), so the memory does not grow with the number of frames.
///
/// A source is used by one caller at a time (it is not `Sendable`); decode on a thread of your own, never the
/// cooperative pool. The limits apply to each frame's canvas, not to the frame count, so a long animation plays
/// where decoding it whole would be refused by `maxTotalPixels`. An animation that breaks off after at least one
/// good frame ends there (`nextFrame()` returns `nil`) with a warning in `warnings`; one that fails before its first
/// frame throws.
public protocol AnimationFrameSource: AnyObject {
    /// The canvas every frame is composited on, in pixels.
    var canvasSize: PixelSize { get }
    /// How many times the animation plays (0: forever).
    var loopCount: Int { get }
    /// What went wrong while decoding, if the animation ended early.
    var warnings: [String] { get }
    /// The EXIF orientation the file gives: reported, not applied (frames come as stored).
    var orientation: ImageOrientation { get }
    /// The next frame of the current loop, or `nil` after its last one (`rewind()` starts the next loop).
    func nextFrame() throws -> ImageFrame?
    /// Goes back to the first frame, as a browser does for the next loop.
    func rewind() throws
}

extension AnimationFrameSource {
    /// `.up`: most animation formats carry no orientation.
    public var orientation: ImageOrientation { .up }
}

/// A decoder that can hand out an animation's frames on demand instead of decoding them all at once.
///
/// `decode(_:options:)` with every frame stays: it is the simpler and, for short animations, the faster choice.
/// Frames on demand suit long or large animations shown one frame at a time (a player, a streaming conversion).
public protocol AnimatedImageDecoding: ImageDecoder {
    /// A frame source over `data`; throws when the header is bad or a frame's canvas breaks `options.limits`.
    func makeFrameSource(_ data: Data, options: DecodeOptions) throws -> any AnimationFrameSource
}
