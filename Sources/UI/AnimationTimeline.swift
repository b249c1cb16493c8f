/// When each frame of an animation shows, by the browsers' rules: which frame is on screen a given time after the
/// start, computed from the clock rather than counted, so a player that falls behind skips frames (drops them)
/// instead of building a backlog.
///
/// A frame shorter than 20 ms (GIF delays of 0 or 1 centisecond, which old encoders wrote for "as fast as
/// possible") shows for 100 ms, as Chrome, Firefox and Safari play it. `loopCount` 0 plays forever; otherwise the
/// animation plays that many times and stays on its last frame.
public struct AnimationTimeline: Sendable, Hashable {
    /// Each frame's duration as played, in seconds.
    public let durations: [Double]
    /// How many times the animation plays (0: forever).
    public let loopCount: Int
    /// One loop's length, in seconds.
    public let loopDuration: Double

    /// The shortest duration played as given; shorter ones play at `tinyFrameDuration`.
    public static let minimumFrameDuration = 0.02
    /// What a frame shorter than `minimumFrameDuration` plays for.
    public static let tinyFrameDuration = 0.1

    /// How long a frame of `duration` seconds plays: `tinyFrameDuration` when shorter than `minimumFrameDuration`
    /// (or not a number).
    public static func playedDuration(_ duration: Double) -> Double {
        duration.isFinite && duration >= minimumFrameDuration ? duration : tinyFrameDuration
    }

    /// A timeline of frames lasting `durations` (seconds, as decoded), played `loopCount` times (0: forever).
    public init(durations: [Double], loopCount: Int) {
        let played = durations.map(Self.playedDuration)
        self.durations = played.isEmpty ? [Self.tinyFrameDuration] : played
        self.loopCount = max(0, loopCount)
        self.loopDuration = self.durations.reduce(0, +)
    }

    /// Where the animation stands `elapsed` seconds after it started.
    public struct Position: Sendable, Hashable {
        /// The frame on screen.
        public var frame: Int
        /// The loop it belongs to, counting from 0.
        public var loop: Int
        /// Seconds from the start until the frame after it is due; `nil` once the last loop has ended.
        public var nextChange: Double?
        /// Whether the last loop has ended (the last frame stays).
        public var isFinished: Bool { nextChange == nil }
    }

    /// The frame on screen `elapsed` seconds after the start (negative times are the start).
    public func position(at elapsed: Double) -> Position {
        let time = max(0, elapsed.isFinite ? elapsed : 0)
        let loop = Int((time / loopDuration).rounded(.down))
        if loopCount > 0, loop >= loopCount {
            return Position(frame: durations.count - 1, loop: loopCount - 1, nextChange: nil)
        }
        var end = Double(loop) * loopDuration
        for (index, duration) in durations.enumerated() {
            end += duration
            if time < end { return Position(frame: index, loop: loop, nextChange: end) }
        }
        // Rounding put `time` at the loop's very end: the next loop's first frame.
        return position(at: Double(loop + 1) * loopDuration)
    }
}
