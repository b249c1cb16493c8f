import ImagoCore
import ImagoTestSupport
import ImagoUI
import Synchronization
import Testing

/// A source of `count` frames whose red channel is the frame's index; it breaks off after `breaksAfter` frames when
/// set, with a warning, as a truncated file does. Its decodes are counted in `decodes` too (shareable across
/// threads), and `probe` records how many decodes ever ran at once.
final class CountingFrameSource: AnimationFrameSource {
    let canvasSize: PixelSize
    let loopCount: Int
    let orientation: ImageOrientation
    private(set) var warnings: [String] = []
    private let durations: [Double]
    private let breaksAfter: Int?
    private let decodes: Counter?
    private let probe: ConcurrencyProbe?
    private var next = 0
    private(set) var decoded = 0

    init(
        durations: [Double], loopCount: Int, breaksAfter: Int? = nil, size: PixelSize = PixelSize(width: 1, height: 1),
        decodes: Counter? = nil, probe: ConcurrencyProbe? = nil, orientation: ImageOrientation = .up
    ) {
        self.orientation = orientation
        self.durations = durations
        self.loopCount = loopCount
        self.breaksAfter = breaksAfter
        self.canvasSize = size
        self.decodes = decodes
        self.probe = probe
    }

    func nextFrame() throws -> ImageFrame? {
        probe?.enter()
        defer { probe?.leave() }
        if let breaksAfter, next == breaksAfter {
            warnings = ["frame \(next) is truncated"]
            return nil
        }
        guard next < durations.count else { return nil }
        defer { next += 1 }
        decoded += 1
        decodes?.increment()
        let raster = try Raster(
            width: canvasSize.width, height: canvasSize.height, fill: RGBA(UInt8(next % 256), 0, 0))
        return ImageFrame(raster: raster, duration: durations[next])
    }

    func rewind() throws { next = 0 }
}

/// Counts the callers inside a section at once, and the most there ever were.
final class ConcurrencyProbe: Sendable {
    private let state = Mutex((now: 0, most: 0))
    var most: Int { state.withLock { $0.most } }
    func enter() {
        state.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
}

@Suite struct AnimationFramePlayerTests {
    @Test func framesAreShownUprightByTheSourcesOrientation() throws {
        let source = CountingFrameSource(
            durations: [0.05, 0.05], loopCount: 1, size: PixelSize(width: 3, height: 2), orientation: .right)
        let player = try AnimationFramePlayer(source: source)
        #expect([player.currentFrame.raster.width, player.currentFrame.raster.height] == [2, 3])
        _ = try player.show(at: 0.06)
        #expect([player.currentFrame.raster.width, player.currentFrame.raster.height] == [2, 3])
        #expect(player.currentFrame.raster.pixels[0] == 1, "the second frame")
    }

    @Test func playsEachFrameOncePerLoopAndStopsOnTheLastFrame() throws {
        let source = CountingFrameSource(durations: [0.05, 0.05, 0.1], loopCount: 2)
        let player = try AnimationFramePlayer(source: source)
        var clock = 0.0
        var shown: [UInt8] = [player.currentFrame.raster.pixels[0]]
        while let next = try player.show(at: clock) {
            if next > clock { shown.append(player.currentFrame.raster.pixels[0]) }
            clock = next
        }
        #expect(source.decoded == 6)
        #expect(player.framesDecoded == 6)
        #expect(player.framesShown == 6)
        #expect(player.framesDropped == 0)
        #expect(player.isFinished)
        #expect(player.loop == 1)
        #expect(player.currentFrame.raster.pixels[0] == 2)
        #expect(abs(clock - 0.4) < 1e-9)
    }

    @Test func aClockThatRunsAheadDropsFramesInsteadOfQueueingThem() throws {
        let player = try AnimationFramePlayer(
            source: CountingFrameSource(durations: Array(repeating: 0.1, count: 10), loopCount: 0))
        try player.show(at: 0.55)
        #expect(player.frameIndex == 5)
        #expect(player.framesShown == 2)
        #expect(player.framesDropped == 4)
        #expect(player.framesDecoded == 6)
    }

    @Test func tinyDurationsPlayForATenthOfASecond() throws {
        let player = try AnimationFramePlayer(
            source: CountingFrameSource(durations: [0, 0.01, 0.019, 0.02], loopCount: 1))
        #expect(try player.show(at: 0) == 0.1)
        try player.show(at: 0.25)
        #expect(player.frameIndex == 2)
        #expect(abs(try #require(try player.show(at: 0.31)) - 0.32) < 1e-9)
    }

    @Test func aTruncatedAnimationPlaysTheDecodedFramesThenStopsWithOneWarning() throws {
        let player = try AnimationFramePlayer(
            source: CountingFrameSource(durations: [0.1, 0.1, 0.1, 0.1], loopCount: 0, breaksAfter: 2))
        #expect(try player.show(at: 10) == nil)
        #expect(player.isFinished)
        #expect(player.framesDecoded == 2)
        #expect(player.warnings == ["frame 2 is truncated"])
        #expect(player.currentFrame.raster.pixels[0] == 1)
    }

    @Test func maximumLoopsBoundsAnEndlessAnimation() throws {
        let source = CountingFrameSource(durations: [0.1, 0.1], loopCount: 0)
        let player = try AnimationFramePlayer(source: source, maximumLoops: 3)
        #expect(try player.show(at: 100) == nil)
        #expect(source.decoded == 6)
        #expect(player.loop == 2)
    }
}
