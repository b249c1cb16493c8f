import ImagoCore

/// Plays an animation straight from its `AnimationFrameSource`, for animations too long or large to hold decoded:
/// only the frame on screen is kept, and each frame is decoded once per loop, when the clock reaches it. The rules
/// are `AnimationTimeline`'s (a frame under 20 ms plays for 100 ms; `loopCount` 0 plays forever, else that many
/// times, staying on the last frame), and a clock that runs ahead skips frames: they are decoded (composition
/// needs them) but not shown, and counted as dropped, never queued.
///
/// An animation that breaks off (the source ends a loop with a warning) plays the frames that decoded and stops
/// there, its warning in `warnings`. A loop of a single frame is a still image: it ends after that frame. Not
/// `Sendable`, like its source: drive it with `show(at:)` from one thread of your own (decoding happens there),
/// never the cooperative pool; `AnimationPlayer` does that for a view, on its decoding executor.
public final class AnimationFramePlayer {
    /// How many times the animation plays (0: forever).
    public let loopCount: Int
    /// The frame to draw.
    public private(set) var currentFrame: ImageFrame
    /// The index of the frame on screen in its loop, and the loop (from 0).
    public private(set) var frameIndex = 0
    public private(set) var loop = 0
    /// Whether the last loop has ended (the last frame stays).
    public private(set) var isFinished = false
    /// Frames decoded, shown, and skipped because the clock had passed them.
    public private(set) var framesDecoded = 1
    public private(set) var framesShown = 1
    public private(set) var framesDropped = 0
    /// Why the animation stopped early, if it did.
    public private(set) var warnings: [String] = []

    private let source: any AnimationFrameSource
    /// Seconds into the animation at which the frame on screen started.
    private var frameStart = 0.0

    /// A player of `source`, on its first frame (decoded here), playing the source's loop count, or at most
    /// `maximumLoops` times when given (a terminal or a test bounds an endless animation); throws when the source
    /// cannot give a frame. Frames are shown upright: a source's EXIF orientation is applied to each.
    public convenience init(source: any AnimationFrameSource, maximumLoops: Int? = nil) throws {
        let source = source.orientation == .up ? source : UprightFrameSource(source)
        guard let first = try source.nextFrame() else {
            throw ImagoError(.decodingFailed(format: ImageFormat("animation")), "the animation has no frame")
        }
        self.init(source: source, first: first, maximumLoops: maximumLoops)
    }

    /// A player stepping through the frames `image` holds (nothing to decode), playing its loop count.
    public convenience init(decodedFramesOf image: DecodedImage) {
        self.init(source: DecodedFrameSource(image, from: 1), first: image.frames[0], maximumLoops: nil)
    }

    private init(source: any AnimationFrameSource, first: ImageFrame, maximumLoops: Int?) {
        self.source = source
        let own = max(0, source.loopCount)
        self.loopCount = maximumLoops.map { own == 0 ? max(1, $0) : min(own, max(1, $0)) } ?? own
        self.currentFrame = first
    }

    /// How long `frame` plays, by the browsers' rule for tiny durations.
    public static func playedDuration(_ frame: ImageFrame) -> Double {
        AnimationTimeline.playedDuration(frame.duration)
    }

    /// Shows the frame due `elapsed` seconds into the animation (a clock that only moves forward), decoding the
    /// frames up to it; returns the seconds into the animation of the next change, `nil` once finished.
    @discardableResult
    public func show(at elapsed: Double) throws -> Double? {
        var advanced = 0
        while !isFinished, elapsed >= frameStart + Self.playedDuration(currentFrame) {
            let end = frameStart + Self.playedDuration(currentFrame)
            guard let next = try nextFrame() else {
                isFinished = true
                break
            }
            currentFrame = next
            frameStart = end
            advanced += 1
        }
        if advanced > 0 {
            framesShown += 1
            framesDropped += advanced - 1
        }
        return isFinished ? nil : frameStart + Self.playedDuration(currentFrame)
    }

    /// The next frame in play order: the next of this loop, or the first of the next loop; nil when the last loop
    /// has ended or the animation broke off.
    private func nextFrame() throws -> ImageFrame? {
        if let frame = try source.nextFrame() {
            framesDecoded += 1
            frameIndex += 1
            return frame
        }
        if !source.warnings.isEmpty {
            warnings = source.warnings
            return nil
        }
        guard frameIndex > 0, loopCount == 0 || loop + 1 < loopCount else { return nil }
        try source.rewind()
        guard let first = try source.nextFrame() else { return nil }
        framesDecoded += 1
        loop += 1
        frameIndex = 0
        return first
    }
}

/// The frames of a `DecodedImage` as a frame source: handed out in order, nothing decoded.
private final class DecodedFrameSource: AnimationFrameSource {
    let image: DecodedImage
    private var next: Int

    init(_ image: DecodedImage, from next: Int) {
        self.image = image
        self.next = next
    }

    var canvasSize: PixelSize { PixelSize(width: image.width, height: image.height) }
    var loopCount: Int { image.loopCount }
    var warnings: [String] { [] }

    func nextFrame() throws -> ImageFrame? {
        guard next < image.frames.count else { return nil }
        defer { next += 1 }
        return image.frames[next]
    }

    func rewind() throws { next = 0 }
}

/// A source's frames turned upright by its orientation.
private final class UprightFrameSource: AnimationFrameSource {
    let stored: any AnimationFrameSource

    init(_ stored: any AnimationFrameSource) { self.stored = stored }

    var canvasSize: PixelSize {
        let size = stored.canvasSize
        return stored.orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }
    var loopCount: Int { stored.loopCount }
    var warnings: [String] { stored.warnings }

    func nextFrame() throws -> ImageFrame? {
        guard let frame = try stored.nextFrame() else { return nil }
        return ImageFrame(raster: try frame.raster.oriented(stored.orientation), duration: frame.duration)
    }

    func rewind() throws { try stored.rewind() }
}
