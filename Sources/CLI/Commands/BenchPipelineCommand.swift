import Foundation
import Imago

/// `imago bench pipeline FILE… …`: an in-process benchmark of the whole loader.
enum BenchPipelineCommand: Command {
    static let spec = CommandSpec(
        name: "bench pipeline", synopsis: "FILE… [--requests N] [--fan-in M] [--max-size S] [--json]",
        summary: "Measures the loader: memory-cache hits, cold loads, coalesced identical requests and disk-cache hits.",
        positionals: PositionalSpec(name: "FILE", minimum: 1, maximum: nil),
        flags: [
            .option("requests", "N", "memory-cache hits to time (default 1000)"),
            .option("fan-in", "M", "identical requests started together (default 50)"),
            .option("max-size", "S", "resize each image to fit within SxS"),
            .toggle("json", "print one JSON object"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        throw UsageError("not built yet")
    }
}
