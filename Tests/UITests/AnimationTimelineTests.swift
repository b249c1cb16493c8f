import Foundation
import ImagoCore
import Testing

@testable import ImagoUI

@Suite struct AnimationTimelineTests {
    @Test func tinyDurationsPlayAtATenthOfASecondAsBrowsersDo() {
        let timeline = AnimationTimeline(durations: [0, 0.01, 0.019, 0.02, 0.5, .nan, -1], loopCount: 0)
        #expect(timeline.durations == [0.1, 0.1, 0.1, 0.02, 0.5, 0.1, 0.1])
        #expect(abs(timeline.loopDuration - 1.02) < 1e-9)
    }

    @Test func positionsFollowTheDurationsAndLoopForever() {
        let timeline = AnimationTimeline(durations: [0.1, 0.2, 0.3], loopCount: 0)
        #expect(timeline.position(at: 0) == .init(frame: 0, loop: 0, nextChange: 0.1))
        #expect(timeline.position(at: 0.15).frame == 1)
        #expect(timeline.position(at: 0.35).frame == 2)
        let later = timeline.position(at: 6.05)  // ten loops of 0.6 s, then 0.05 s
        #expect(later.frame == 0 && later.loop == 10 && !later.isFinished)
        #expect(timeline.position(at: -3).frame == 0 && timeline.position(at: .nan).frame == 0)
    }

    @Test func aCountedAnimationStopsOnItsLastFrame() {
        let timeline = AnimationTimeline(durations: [0.1, 0.1], loopCount: 2)
        #expect(timeline.position(at: 0.35) == .init(frame: 1, loop: 1, nextChange: 0.4))
        let end = timeline.position(at: 0.4)
        #expect(end.isFinished && end.frame == 1 && end.loop == 1)
        #expect(timeline.position(at: 1e9).isFinished)
    }
}

@MainActor
@Suite struct AnimationPlayerTests {
    static func animation(frames: Int, duration: Double, loopCount: Int) throws -> DecodedImage {
        let rasters = try (0..<frames).map { try Raster(width: 2, height: 2, fill: RGBA(UInt8($0), 0, 0)) }
        return DecodedImage(
            frames: rasters.map { ImageFrame(raster: $0, duration: duration) }, loopCount: loopCount, format: .gif,
            hasAlpha: false)
    }

    @Test func aPlayerThatFallsBehindDropsFramesInsteadOfQueueingThem() async throws {
        let player = AnimationPlayer(image: try Self.animation(frames: 5, duration: 0.1, loopCount: 0))
        await player.show(at: 0.05)
        #expect(player.frameIndex == 0 && player.framesShown == 1 && player.framesDropped == 0)
        await player.show(at: 0.15)
        #expect(player.frameIndex == 1 && player.framesDropped == 0)
        await player.show(at: 0.35)  // frame 2 was due and is skipped
        #expect(player.frameIndex == 3 && player.framesShown == 3 && player.framesDropped == 1)
        await player.show(at: 0.65)  // across the loop: frames 4 and 0 skipped
        #expect(player.frameIndex == 1 && player.framesDropped == 3)
        #expect(player.currentFrame.raster.pixels[0] == 1)
        await player.show(at: 0.66)  // the same frame again: nothing new
        #expect(player.framesShown == 4)
    }

    @Test func theLoopCountIsHonouredAndTheLastFrameStays() async throws {
        let player = AnimationPlayer(image: try Self.animation(frames: 3, duration: 0.05, loopCount: 2))
        await player.show(at: 0.29)
        #expect(player.frameIndex == 2 && !player.isFinished)
        await player.show(at: 0.3)
        #expect(player.isFinished && player.frameIndex == 2)
        player.play()
        #expect(!player.isPlaying, "a finished animation does not start again")
    }

    @Test func playingAdvancesFramesAndPausingStopsTheClock() async throws {
        let player = AnimationPlayer(image: try Self.animation(frames: 4, duration: 0.02, loopCount: 0))
        player.play()
        #expect(player.isPlaying)
        while player.framesShown < 3 { try await Task.sleep(nanoseconds: 5_000_000) }
        player.pause()
        let paused = player.elapsed
        let shown = player.framesShown
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(player.elapsed == paused && player.framesShown == shown && !player.isPlaying)
        player.play()
        while player.framesShown == shown { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(player.elapsed > paused)
        player.pause()
    }

    @Test func aStillImageNeverPlays() throws {
        let player = AnimationPlayer(image: try Self.animation(frames: 1, duration: 0, loopCount: 0))
        player.play()
        #expect(!player.isPlaying && player.isFinished && player.frameIndex == 0)
    }

    @Test func aCountedAnimationPlayedByTheClockStopsByItself() async throws {
        let player = AnimationPlayer(image: try Self.animation(frames: 2, duration: 0.02, loopCount: 1))
        player.play()
        while player.isPlaying { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(player.isFinished && player.frameIndex == 1)
    }
}

@MainActor
@Suite struct ImageModelAnimationTests {
    @Test func anAnimatedImageGetsAPlayerAndAStillOneNone() async throws {
        let animation = try AnimationPlayerTests.animation(frames: 3, duration: 0.02, loopCount: 0)
        var builder = PluginRegistry.Builder()
        builder.add(AnswerInterceptor(image: animation))
        let loader = ImageLoader(registry: builder.build())
        let model = ImageModel(loader: loader, request: ImageRequest(url: URL(string: "shelf://host/anim")!))
        model.load()
        while model.phase.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        let player = try #require(model.player)
        #expect(player.isPlaying && player.image?.frames.count == 3)
        while player.framesShown < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        model.request = nil
        #expect(model.player == nil && !player.isPlaying, "a replaced image stops playing")
    }
}

/// Answers every load with one image, without a transport.
private struct AnswerInterceptor: ImageInterceptor {
    let image: DecodedImage
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
    }
}
