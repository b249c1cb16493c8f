/// Which moments of a source with a timeline (a video) a decode gives: its poster for a still decode, or frames
/// sampled from it for an animated one. Decoders of formats without a timeline ignore it.
public struct TimelineOptions: Sendable, Hashable, Codable {
    /// The poster's time, in seconds from the start; nil lets the decoder choose (the video decoder picks the first
    /// frame that is neither nearly black nor flat within the first seconds).
    public var posterTime: Double?
    /// Whether the poster at `posterTime` may be the keyframe at or before it (one frame decoded, the time kept to
    /// within the video's keyframe interval) rather than the exact frame (decoded forward from that keyframe).
    public var posterAtKeyframe = false
    /// For frames: where they start, in seconds.
    public var start: Double
    /// For frames: how many seconds they span at most (nil: to the end).
    public var duration: Double?
    /// For frames: at most this many (nil: as many as the limits allow).
    public var maxFrames: Int?
    /// For frames: at most this many a second, frames in between skipped (nil: the source's own rate).
    public var maxFrameRate: Double?

    /// Creates options; the defaults ask for the decoder's poster, or every frame from the start.
    public init(
        posterTime: Double? = nil, start: Double = 0, duration: Double? = nil, maxFrames: Int? = nil,
        maxFrameRate: Double? = nil
    ) {
        self.posterTime = posterTime
        self.start = start
        self.duration = duration
        self.maxFrames = maxFrames
        self.maxFrameRate = maxFrameRate
    }

    /// Whether a decode of every frame (`FrameSelection.all`) asks for frames rather than the poster: a video's
    /// frames are decoded only when a cap says how many.
    public var wantsFrames: Bool { duration != nil || maxFrames != nil || maxFrameRate != nil }

    /// How many frames sampling an animation of `info`'s length gives at most: `maxFrames`, and at `maxFrameRate`
    /// over the span from `start` (`duration`, or to the end).
    public func sampledFrameCount(of info: AnimationInfo) -> Int {
        var count = info.frameCount
        if let maxFrameRate, maxFrameRate > 0, info.totalDuration > 0 {
            let span = max(0, min(duration ?? .infinity, info.totalDuration - start))
            count = min(count, Int((span * maxFrameRate).rounded(.up)) + 1)
        }
        if let maxFrames { count = min(count, maxFrames) }
        return max(1, count)
    }

    /// A stable description of what is asked (empty for the defaults), for cache keys.
    public var cacheKeyComponent: String {
        var parts: [String] = []
        if let posterTime { parts.append("t=\(posterTime)") }
        if posterAtKeyframe { parts.append("keyframe") }
        if start != 0 { parts.append("start=\(start)") }
        if let duration { parts.append("duration=\(duration)") }
        if let maxFrames { parts.append("frames=\(maxFrames)") }
        if let maxFrameRate { parts.append("fps=\(maxFrameRate)") }
        return parts.joined(separator: ";")
    }
}
