import Foundation
import Imago

/// `imago load SRC… …`: the batch main job through the loader.
enum LoadCommand: Command {
    static let spec = CommandSpec(
        name: "load",
        synopsis: "SRC… [--out DIR] [--max-size N] [--format F] [--concurrency N] [--retries N] [--timeout S] "
            + "[--config FILE] [--no-cache] [--cache-dir DIR] [--json]",
        summary: "Loads every source through the full pipeline (transports, caches, codecs, processors), writes the "
            + "results into DIR when given, shows a progress bar on a terminal and prints a summary.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: nil),
        flags: [
            .option("out", "DIR", "write each image into DIR (atomically)"),
            .option("max-size", "N", "shrink each image to fit within NxN"),
            .option("format", "F", "format of the files written to DIR: png, jpeg, webp or gif (default: the source's)"),
            .option("concurrency", "N", "most loads at once (default: the configuration's, 8)"),
            .option("retries", "N", "retries of a failed fetch (default: the configuration's, 2)"),
            .option("timeout", "S", "seconds each source may take in all"),
            .option("config", "FILE", "a configuration file, as `imago config --print-default` prints"),
            .toggle("no-cache", "use neither the memory nor the disk cache"),
            .option("cache-dir", "DIR", "the disk cache folder (default: $IMAGO_CACHE_DIR, else ~/.cache/imago)"),
            .toggle("json", "print one JSON line per source"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        throw UsageError("not built yet")
    }
}
