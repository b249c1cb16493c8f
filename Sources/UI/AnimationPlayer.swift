import Foundation
import ImagoCore
import Observation

/// Plays an animated image for a view: the frame to draw now, changed when its time comes. The rules are
/// `AnimationFramePlayer`'s, the one implementation of them (loop count honoured, tiny durations at 100 ms, frames
/// dropped rather than queued when the clock runs ahead). A view draws `currentFrame`; `pause()` when it is not
/// visible stops the clock and the decoding, `play()` resumes where it stopped.
///
/// Two kinds of animation play alike: a `DecodedImage` holding every frame (stepping through it is instant, done
/// here), or an `AnimationFrameSource` decoded frame by frame (bounded memory: one canvas, whatever the frame
/// count). A source's frames are decoded on `decodingExecutor`'s threads, never the main actor or the cooperative
/// pool, one decode at a time: a change that falls due while a decode runs waits for it and is then taken at the
/// clock's newest time, so the frames passed meanwhile are dropped, never queued. The main actor only receives
/// finished frames.
@MainActor
@Observable
public final class AnimationPlayer {
    /// The all-frames animation played; nil when it plays from a frame source.
    public let image: DecodedImage?
    /// How many times the animation plays (0: forever).
    public let loopCount: Int
    /// The frame to draw.
    public private(set) var currentFrame: ImageFrame {
        get {
            access(keyPath: \.currentFrame)
            return frame
        }
        // Written by hand: the macro's setter compares the frames, pixel by pixel.
        set { withMutation(keyPath: \.currentFrame) { frame = newValue } }
    }
    @ObservationIgnored private var frame: ImageFrame
    /// The index of the frame on screen in its loop, and the loop (from 0).
    public private(set) var frameIndex = 0
    public private(set) var loop = 0
    /// Whether the clock runs.
    public private(set) var isPlaying = false
    /// Whether the last loop has ended (the last frame stays).
    public private(set) var isFinished = false
    /// Frames handed out by the source (decoded, for a frame source), shown, and skipped because the clock had
    /// passed them.
    public private(set) var framesDecoded = 1
    public private(set) var framesShown = 1
    public private(set) var framesDropped = 0
    /// Why the animation stopped early (a truncated file), if it did.
    public private(set) var warnings: [String] = []

    /// The threads frame sources decode on: half the cores (at least one), so playing animations leave the app
    /// the rest; each player decodes one frame at a time. (A second thread for a single player only costs memory:
    /// another malloc arena, about 7 MB measured in `imago bench play`.)
    public nonisolated static let decodingExecutor = WorkExecutor(
        name: "imago.animation", threadCount: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))

    @ObservationIgnored private let engine: AnimationEngine
    /// Whether `engine` decodes (a frame source) and so runs on `decodingExecutor`.
    @ObservationIgnored private let decodes: Bool
    /// Seconds played before the current run of the clock (the time paused is not counted).
    @ObservationIgnored private var playedBefore = 0.0
    @ObservationIgnored private var runStart: ContinuousClock.Instant?
    /// The clock's task; a paused one is kept until it ends, so a decode it started finishes before the next.
    @ObservationIgnored private var ticker: Task<Void, Never>?
    /// Whether a step (a decode, for a frame source) is running, and when the frame after the one shown is due.
    @ObservationIgnored private var isStepping = false
    @ObservationIgnored private var nextChange: Double? = 0

    /// A player of `image`'s frames, stopped on the first.
    public init(image: DecodedImage) {
        self.image = image
        let engine = AnimationEngine(AnimationFramePlayer(decodedFramesOf: image))
        self.engine = engine
        self.decodes = false
        self.loopCount = engine.player.loopCount
        self.frame = image.frames[0]
        isFinished = !image.isAnimated
    }

    /// A player of the source `makeSource` creates, stopped on its first frame; the source is made and its first
    /// frame decoded on `decodingExecutor`. Plays the source's loop count, or at most `maximumLoops` times.
    /// Throws when the source cannot be made or has no frame.
    public init(
        maximumLoops: Int? = nil, makeSource: @escaping @Sendable () throws -> any AnimationFrameSource
    ) async throws {
        let engine = try await Self.decodingExecutor.run {
            AnimationEngine(try AnimationFramePlayer(source: makeSource(), maximumLoops: maximumLoops))
        }
        let state = engine.state(nextChange: 0)
        self.image = nil
        self.engine = engine
        self.decodes = true
        self.loopCount = state.loopCount
        self.frame = state.frame
    }

    /// Seconds of the animation played so far.
    public var elapsed: Double {
        playedBefore + (runStart.map { $0.duration(to: .now).seconds } ?? 0)
    }

    /// Starts or resumes the clock.
    public func play() {
        guard !isPlaying, !isFinished else { return }
        isPlaying = true
        runStart = .now
        let previous = ticker
        ticker = Task { [weak self] in
            // A decode the paused clock started finishes first: one decode at a time.
            await previous?.value
            while !Task.isCancelled, let wait = await self?.tick() {
                try? await Task.sleep(for: .seconds(wait))
            }
        }
    }

    /// Stops the clock on the current frame; nothing more is decoded until `play()` (a frame whose decode had
    /// started is still shown: it was due before the pause).
    public func pause() {
        guard isPlaying else { return }
        playedBefore = elapsed
        runStart = nil
        isPlaying = false
        ticker?.cancel()
    }

    /// Shows the frame due at the clock's newest time; returns the seconds until the next change, `nil` when
    /// stopped.
    private func tick() async -> Double? {
        guard isPlaying else { return nil }
        let next = await show(at: elapsed)
        guard isPlaying else { return nil }
        guard let next else {
            pause()
            return nil
        }
        return max(0.001, next - elapsed)
    }

    /// Shows the frame due `elapsed` seconds into the animation (a clock that only moves forward), counting the
    /// frames skipped since the last one shown as dropped; returns the seconds into the animation of the next
    /// change, `nil` once finished. The clock of `play()` calls this; tests and custom clocks may too. A call made
    /// while a step runs does nothing and returns the last known change: the next call takes the newer time.
    @discardableResult
    public func show(at elapsed: Double) async -> Double? {
        guard !isFinished else { return nil }
        guard !isStepping else { return nextChange }
        isStepping = true
        defer { isStepping = false }
        let engine = self.engine
        let state: AnimationEngine.State
        do {
            state =
                decodes
                ? try await Self.decodingExecutor.run { try engine.show(at: elapsed) } : try engine.show(at: elapsed)
        } catch is CancellationError {
            return nextChange
        } catch {
            state = engine.failed(error)
        }
        apply(state)
        nextChange = state.nextChange
        return nextChange
    }

    private func apply(_ state: AnimationEngine.State) {
        if state.framesShown != framesShown { currentFrame = state.frame }
        frameIndex = state.frameIndex
        loop = state.loop
        framesDecoded = state.framesDecoded
        framesShown = state.framesShown
        framesDropped = state.framesDropped
        if warnings != state.warnings { warnings = state.warnings }
        if state.isFinished { isFinished = true }
    }

    /// Waits until the clock's task has ended (after `pause()`), with the decode it had started.
    func clockStopped() async {
        await ticker?.value
    }

    isolated deinit { ticker?.cancel() }
}

/// The `AnimationFramePlayer` of an `AnimationPlayer`, sent to the decoding executor's threads: it is used by one
/// job at a time (the player awaits each decode before it starts another), which is what makes sending it safe.
final class AnimationEngine: @unchecked Sendable {
    let player: AnimationFramePlayer

    /// What the main actor takes from the frame player after a step.
    struct State: Sendable {
        var frame: ImageFrame
        var frameIndex: Int
        var loop: Int
        var loopCount: Int
        var isFinished: Bool
        var framesDecoded: Int
        var framesShown: Int
        var framesDropped: Int
        var warnings: [String]
        var nextChange: Double?
    }

    init(_ player: AnimationFramePlayer) { self.player = player }

    func show(at elapsed: Double) throws -> State {
        state(nextChange: try player.show(at: elapsed))
    }

    /// A decode that threw (a damaged frame past the first): the animation stops on the frame it has.
    func failed(_ error: any Error) -> State {
        var state = state(nextChange: nil)
        state.isFinished = true
        state.warnings.append(ImagoError.wrapping(error, source: nil).description)
        return state
    }

    func state(nextChange: Double?) -> State {
        State(
            frame: player.currentFrame, frameIndex: player.frameIndex, loop: player.loop,
            loopCount: player.loopCount, isFinished: player.isFinished, framesDecoded: player.framesDecoded,
            framesShown: player.framesShown, framesDropped: player.framesDropped, warnings: player.warnings,
            nextChange: nextChange)
    }
}
