import Foundation
import Imago

/// `imago bench pipeline FILE… …`: an in-process benchmark of the whole loader.
enum BenchPipelineCommand: Command {
    static let spec = CommandSpec(
        name: "bench pipeline", synopsis: "FILE… [--requests N] [--fan-in M] [--max-size S] [--json]",
        summary: "Measures the loader (memory cache on, a temporary disk cache): memory-cache hits, cold loads, "
            + "identical requests coalesced into one decode, and disk-cache hits from a second loader; with "
            + "--max-size, the thumbnail batch through an uncached loader against the codec called directly.",
        positionals: PositionalSpec(name: "FILE", minimum: 1, maximum: nil),
        flags: [
            .option("requests", "N", "memory-cache hits to time (default 1000)"),
            .option("fan-in", "M", "identical requests started together (default 50)"),
            .option("max-size", "S", "resize each image to fit within SxS; adds the thumbnail batch"),
            .toggle("json", "print one JSON object"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let requestCount = try arguments.int("requests", in: 1...10_000_000) ?? 1000
        let fanIn = try arguments.int("fan-in", in: 1...100_000) ?? 50
        let maxSize = try arguments.int("max-size", in: 1...65_535)
        let files = arguments.positionals
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("imago-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bench = try PipelineBench(files: files, maxSize: maxSize, cacheDirectory: directory.path)
        let result: PipelineBench.Result
        do {
            result = try await bench.measure(requests: requestCount, fanIn: fanIn)
        } catch {
            Console.report(ImagoError.wrapping(error))
            return .failure
        }
        Console.print(arguments.has("json") ? result.json.text : result.text)
        return .success
    }
}
