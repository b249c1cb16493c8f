import Foundation
import Imago
import ImagoUI

/// `imago bench play FILE [--loops N] [--json]`: plays an animation through `AnimationPlayer` over a frame source
/// (how a view model plays an animation too large to hold), on a virtual clock that steps to each frame's change,
/// so every frame is decoded and shown once per loop, as fast as the decoder goes; reports the frames and the time
/// (peak memory is the caller's to measure, e.g. `/usr/bin/time -v`).
enum BenchPlayCommand: Command {
    static let spec = CommandSpec(
        name: "bench play", synopsis: "FILE [--loops N] [--json]",
        summary:
            "Plays an animated FILE frame by frame on a virtual clock and prints the frames and frames per second.",
        positionals: PositionalSpec(name: "FILE", minimum: 1, maximum: 1),
        flags: [
            .option("loops", "N", "loops to play (default 2; the file's own count when it is smaller)"),
            .toggle("json", "print {\"loops\":…,\"frames_decoded\":…,\"frames_shown\":…,\"fps\":…}"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let file = arguments.positionals[0]
        let loops = try arguments.int("loops", in: 1...1_000_000) ?? 2
        let loader = CommandLoader()
        let summary: Summary
        do {
            let data = try await loader.data(file)
            let limits = loader.loader.settings.limits
            let decoder = try loader.registry.decoder(for: data, limits: limits)
            guard let animated = decoder as? any AnimatedImageDecoding else {
                throw ImagoError(.decodingFailed(format: decoder.format), "\(decoder.format) has no frame source")
            }
            summary = try await play(data, decoder: animated, limits: limits, loops: loops)
        } catch {
            Console.report(CommandLoader.named(error, file))
            return .failure
        }
        let fps = Double(summary.decoded) / max(summary.seconds, 1e-9)
        if arguments.has("json") {
            Console.print(
                JSONOutput.object([
                    ("loops", .int(summary.loops)), ("frames_decoded", .int(summary.decoded)),
                    ("frames_shown", .int(summary.shown)), ("frames_dropped", .int(summary.dropped)),
                    ("fps", .rounded(fps, digits: 1)),
                ]).text)
        } else {
            Console.print(
                "\(file): \(summary.loops) loop(s), \(summary.decoded) frames decoded, \(summary.shown) shown, "
                    + "\(summary.dropped) dropped, \(String(format: "%.1f", fps)) frames/s")
        }
        for warning in summary.warnings { Console.printError("imago: warning: \(file): \(warning)") }
        return .success
    }

    /// Plays through `AnimationPlayer` (what a view model drives: its frames decoded on the player's executor, one
    /// at a time), on a virtual clock that jumps to each change: every frame is shown, none dropped.
    @MainActor
    static func play(_ data: Data, decoder: any AnimatedImageDecoding, limits: DecodeLimits, loops: Int) async throws
        -> Summary
    {
        let start = ContinuousClock.now
        let player = try await AnimationPlayer(maximumLoops: loops) {
            try decoder.makeFrameSource(data, options: DecodeOptions(limits: limits))
        }
        var clock = 0.0
        while let next = await player.show(at: clock) { clock = next }
        return Summary(
            loops: player.loop + 1, decoded: player.framesDecoded, shown: player.framesShown,
            dropped: player.framesDropped, warnings: player.warnings,
            seconds: Stopwatch.milliseconds(since: start) / 1000)
    }

    /// What a play took.
    struct Summary: Sendable {
        var loops: Int
        var decoded: Int
        var shown: Int
        var dropped: Int
        var warnings: [String]
        var seconds: Double
    }
}
