import ImagoCore
import Observation

/// Plays an animated image for a view: the frame to draw now, changed when its time comes by the
/// `AnimationTimeline` rules (loop count honoured, tiny durations at 100 ms, frames dropped rather than queued
/// when the clock runs ahead). A view draws `currentFrame`; `pause()` when it is not visible stops the clock and the
/// work, `play()` resumes where it stopped.
@MainActor
@Observable
public final class AnimationPlayer {
    /// The animation played.
    public let image: DecodedImage
    /// When each frame shows.
    public let timeline: AnimationTimeline
    /// The index of the frame on screen.
    public private(set) var frameIndex = 0
    /// Whether the clock runs.
    public private(set) var isPlaying = false
    /// Whether the last loop has ended (the last frame stays).
    public private(set) var isFinished = false
    /// Frames shown so far, and frames skipped because the clock had passed them.
    public private(set) var framesShown = 1
    public private(set) var framesDropped = 0

    /// Seconds played before the current run of the clock (the time paused is not counted).
    @ObservationIgnored private var playedBefore = 0.0
    @ObservationIgnored private var runStart: ContinuousClock.Instant?
    @ObservationIgnored private var shown = (frame: 0, loop: 0)
    @ObservationIgnored private var ticker: Task<Void, Never>?

    /// A player of `image`'s frames, stopped on the first.
    public init(image: DecodedImage) {
        self.image = image
        self.timeline = AnimationTimeline(durations: image.durations, loopCount: image.loopCount)
        isFinished = image.frames.count < 2
    }

    /// The frame to draw.
    public var currentFrame: ImageFrame { image.frames[frameIndex] }

    /// Seconds of the animation played so far.
    public var elapsed: Double {
        playedBefore + (runStart.map { $0.duration(to: .now).seconds } ?? 0)
    }

    /// Starts or resumes the clock.
    public func play() {
        guard !isPlaying, !isFinished else { return }
        isPlaying = true
        runStart = .now
        ticker = Task { [weak self] in
            while let next = self?.tick() {
                try? await Task.sleep(for: .seconds(next))
                if Task.isCancelled { return }
            }
        }
    }

    /// Stops the clock on the current frame; nothing is decoded or drawn until `play()`.
    public func pause() {
        guard isPlaying else { return }
        playedBefore = elapsed
        runStart = nil
        isPlaying = false
        ticker?.cancel()
        ticker = nil
    }

    /// Shows the frame due at the clock's time; returns the seconds until the next change, `nil` when stopped.
    private func tick() -> Double? {
        guard isPlaying else { return nil }
        let now = elapsed
        let position = show(at: now)
        guard let next = position.nextChange else {
            pause()
            return nil
        }
        return max(0.001, next - now)
    }

    /// Shows the frame due `elapsed` seconds into the animation, counting the frames skipped since the last one
    /// shown as dropped. The clock of `play()` calls this; tests and custom clocks may too.
    @discardableResult
    public func show(at elapsed: Double) -> AnimationTimeline.Position {
        let position = timeline.position(at: elapsed)
        let count = timeline.durations.count
        let passed = (position.loop - shown.loop) * count + position.frame - shown.frame
        if passed > 0 {
            framesShown += 1
            framesDropped += passed - 1
            frameIndex = position.frame
            shown = (position.frame, position.loop)
        }
        if position.isFinished { isFinished = true }
        return position
    }

    isolated deinit { ticker?.cancel() }
}

extension Duration {
    fileprivate var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
