import Foundation
import Imago

/// `imago bench decode FILE [--iterations N] [--json]`: decode time of one file, in-process.
enum BenchDecodeCommand: Command {
    static let spec = CommandSpec(
        name: "bench decode", synopsis: "FILE [--iterations N] [--json]",
        summary: "Decodes FILE N times in-process (after one warm-up) and prints the median and minimum milliseconds.",
        positionals: PositionalSpec(name: "FILE", minimum: 1, maximum: 1),
        flags: [
            .option("iterations", "N", "how many timed decodes (default 20)"),
            .toggle("json", "print {\"median_ms\":…,\"min_ms\":…}"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let file = arguments.positionals[0]
        let iterations = try arguments.int("iterations", in: 1...100_000) ?? 20
        let loader = CommandLoader()
        var times: [Double] = []
        do {
            let data = try await loader.data(file)
            // The decoder itself is timed: the one the loader would choose, called directly.
            let limits = loader.loader.settings.limits
            let decoder = try loader.registry.decoder(for: data, limits: limits)
            let options = DecodeOptions(limits: limits)
            _ = try decoder.decode(checked: data, options: options)
            for _ in 0..<iterations {
                let start = ContinuousClock.now
                _ = try decoder.decode(checked: data, options: options)
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
                JSONOutput.object([
                    ("median_ms", .rounded(median, digits: 3)), ("min_ms", .rounded(minimum, digits: 3)),
                ]).text)
        } else {
            Console.print(
                "\(file): median \(String(format: "%.3f", median)) ms, min \(String(format: "%.3f", minimum)) ms "
                    + "(\(iterations) decodes)")
        }
        return .success
    }
}
