import Foundation
import Imago

/// `imago bench decode FILE [--iterations N] [--json]`: decode time of one file, in-process.
enum BenchDecodeCommand: Command {
    static let spec = CommandSpec(
        name: "bench decode", synopsis: "FILE [--iterations N] [--frames] [--json]",
        summary: "Decodes FILE N times in-process (after one warm-up) and prints the median and minimum milliseconds.",
        positionals: PositionalSpec(name: "FILE", minimum: 1, maximum: 1),
        flags: [
            .option("iterations", "N", "how many timed decodes (default 20)"),
            .toggle("frames", "decode an animation frame by frame (its frame source) and report frames per second"),
            .toggle("json", "print {\"median_ms\":…,\"min_ms\":…} (with --frames, also frames and fps)"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let file = arguments.positionals[0]
        let iterations = try arguments.int("iterations", in: 1...100_000) ?? 20
        let loader = CommandLoader()
        var times: [Double] = []
        var frames = 0
        do {
            let data = try await loader.data(file)
            // The decoder itself is timed: the one the loader would choose, called directly.
            let limits = loader.loader.settings.limits
            let decoder = try loader.registry.decoder(for: data, limits: limits)
            let options = DecodeOptions(limits: limits)
            let decode: () throws -> Int
            if arguments.has("frames") {
                guard let animated = decoder as? any AnimatedImageDecoding else {
                    throw ImagoError(.decodingFailed(format: decoder.format), "\(decoder.format) has no frame source")
                }
                decode = { try countFrames(animated.makeFrameSource(data, options: options)) }
            } else {
                decode = { try decoder.decode(checked: data, options: options).frames.count }
            }
            frames = try decode()
            for _ in 0..<iterations {
                let start = ContinuousClock.now
                _ = try decode()
                times.append(Stopwatch.milliseconds(since: start))
            }
        } catch {
            Console.report(CommandLoader.named(error, file))
            return .failure
        }
        let median = Stopwatch.percentile(times, 0.5)
        let minimum = times.min() ?? 0
        if arguments.has("json") {
            Console.print(
                JSONOutput.object(
                    [("median_ms", .rounded(median, digits: 3)), ("min_ms", .rounded(minimum, digits: 3))]
                        + (arguments.has("frames")
                            ? [("frames", .int(frames)), ("fps", .rounded(Double(frames) * 1000 / median, digits: 1))]
                            : [])
                ).text)
        } else {
            Console.print(
                "\(file): median \(String(format: "%.3f", median)) ms, min \(String(format: "%.3f", minimum)) ms "
                    + "(\(iterations) decodes)")
        }
        return .success
    }

    /// Reads one loop of `source`, keeping no frame; returns how many there were.
    static func countFrames(_ source: any AnimationFrameSource) throws -> Int {
        var count = 0
        while try source.nextFrame() != nil { count += 1 }
        return count
    }
}
