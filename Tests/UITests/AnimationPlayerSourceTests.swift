import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

@testable import ImagoUI

/// `AnimationPlayer` over a frame source: the decoding runs on the player's executor, the rules are the frame
/// player's.
@MainActor
@Suite struct AnimationPlayerSourceTests {
    @Test func aVirtualClockShowsEveryFrameDecodedOncePerLoop() async throws {
        let decodes = Counter()
        let player = try await AnimationPlayer {
            CountingFrameSource(durations: [0.05, 0.05, 0.1], loopCount: 2, decodes: decodes)
        }
        #expect(player.image == nil && decodes.count == 1 && player.loopCount == 2)
        var clock = 0.0
        var shown: [UInt8] = [player.currentFrame.raster.pixels[0]]
        while let next = await player.show(at: clock) {
            if player.framesShown > shown.count { shown.append(player.currentFrame.raster.pixels[0]) }
            clock = next
        }
        if player.framesShown > shown.count { shown.append(player.currentFrame.raster.pixels[0]) }
        #expect(shown == [0, 1, 2, 0, 1, 2])
        #expect(decodes.count == 6 && player.framesDecoded == 6 && player.framesDropped == 0)
        #expect(player.isFinished && player.loop == 1 && player.frameIndex == 2)
        #expect(abs(clock - 0.4) < 1e-9)
    }

    @Test func aClockThatRunsAheadDropsFramesInsteadOfQueueingThem() async throws {
        let player = try await AnimationPlayer {
            CountingFrameSource(durations: Array(repeating: 0.1, count: 10), loopCount: 0)
        }
        await player.show(at: 0.55)
        #expect(player.frameIndex == 5 && player.framesShown == 2 && player.framesDropped == 4)
        #expect(player.currentFrame.raster.pixels[0] == 5)
        await player.show(at: 1.25)  // across the loop: frames 6 to 9 and 0, 1 skipped
        #expect(player.loop == 1 && player.frameIndex == 2 && player.framesShown == 3 && player.framesDropped == 10)
    }

    @Test func stepsAskedForWhileOneRunsAreCoalescedNotRunTogether() async throws {
        let decodes = Counter()
        let probe = ConcurrencyProbe()
        let player = try await AnimationPlayer {
            CountingFrameSource(
                durations: Array(repeating: 0.1, count: 10), loopCount: 0, decodes: decodes, probe: probe)
        }
        async let first = player.show(at: 0.55)
        async let second = player.show(at: 0.35)
        _ = await (first, second)
        await player.show(at: 0.95)
        #expect(probe.most == 1)
        #expect(player.frameIndex == 9 && decodes.count == 10, "each frame decoded once")
    }

    @Test func maximumLoopsBoundsAnEndlessAnimation() async throws {
        let decodes = Counter()
        let player = try await AnimationPlayer(maximumLoops: 3) {
            CountingFrameSource(durations: [0.1, 0.1], loopCount: 0, decodes: decodes)
        }
        #expect(await player.show(at: 100) == nil)
        #expect(player.isFinished && player.loop == 2 && decodes.count == 6)
    }

    @Test func aTruncatedAnimationPlaysTheDecodedFramesThenStopsWithOneWarning() async throws {
        let player = try await AnimationPlayer {
            CountingFrameSource(durations: [0.1, 0.1, 0.1, 0.1], loopCount: 0, breaksAfter: 2)
        }
        #expect(await player.show(at: 10) == nil)
        #expect(player.isFinished && player.framesDecoded == 2)
        #expect(player.warnings == ["frame 2 is truncated"])
        #expect(player.currentFrame.raster.pixels[0] == 1)
        player.play()
        #expect(!player.isPlaying, "a finished animation does not start again")
    }

    @Test func aSourceWithoutFramesIsAnError() async throws {
        await #expect(throws: ImagoError.self) {
            _ = try await AnimationPlayer { CountingFrameSource(durations: [], loopCount: 0) }
        }
    }

    @Test func pausingStopsTheDecodingAndPlayResumesIt() async throws {
        let decodes = Counter()
        let probe = ConcurrencyProbe()
        let player = try await AnimationPlayer {
            CountingFrameSource(durations: [0.02, 0.02, 0.02], loopCount: 0, decodes: decodes, probe: probe)
        }
        player.play()
        while player.framesShown < 4 { try await Task.sleep(nanoseconds: 5_000_000) }
        // Pausing and playing again at once never runs two decodes together.
        for _ in 0..<20 {
            player.pause()
            player.play()
        }
        player.pause()
        await player.clockStopped()
        let decoded = decodes.count
        let shown = player.framesShown
        #expect(player.framesDecoded == decoded)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(decodes.count == decoded && player.framesShown == shown && !player.isPlaying)
        player.play()
        while decodes.count <= decoded { try await Task.sleep(nanoseconds: 5_000_000) }
        player.pause()
        await player.clockStopped()
        #expect(probe.most == 1)
    }

    @Test func aOneFrameSourceIsAStill() async throws {
        let decodes = Counter()
        let player = try await AnimationPlayer {
            CountingFrameSource(durations: [0.05], loopCount: 0, decodes: decodes)
        }
        #expect(await player.show(at: 1) == nil)
        #expect(player.isFinished && decodes.count == 1)
    }
}
