import Foundation
import Imago

/// `imago cache stats|clear|path [--cache-dir DIR]`: the disk cache.
enum CacheCommand: Command {
    static let spec = CommandSpec(
        name: "cache", synopsis: "stats|clear|path [--cache-dir DIR]",
        summary: "Shows the disk cache's size (stats), empties it (clear) or prints its folder (path).",
        positionals: PositionalSpec(name: "stats|clear|path", minimum: 1, maximum: 1),
        flags: [.option("cache-dir", "DIR", "the cache folder (default: $IMAGO_CACHE_DIR, else ~/.cache/imago)")])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let directory = CacheLocation.directory(override: arguments.string("cache-dir"))
        switch arguments.positionals[0] {
        case "path":
            Console.print(directory.path)
        case "stats":
            let stats = DiskCacheStats(directory: directory)
            Console.print("path: \(directory.path)")
            Console.print("entries: \(stats.entries)")
            Console.print("bytes: \(stats.bytes) (\(ByteFormat.string(stats.bytes)))")
        case "clear":
            let before = DiskCacheStats(directory: directory)
            await DiskCacheStats.clear(directory: directory)
            Console.print(
                "removed \(before.entries) entries (\(ByteFormat.string(before.bytes))) from \(directory.path)")
        case let action:
            throw UsageError("unknown action \"\(action)\": use stats, clear or path")
        }
        return .success
    }
}
