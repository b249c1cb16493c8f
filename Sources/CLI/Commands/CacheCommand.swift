import Foundation
import Imago

/// `imago cache stats|clear|path [--cache-dir DIR]`: the disk cache.
enum CacheCommand: Command {
    static let spec = CommandSpec(
        name: "cache", synopsis: "stats|clear|path [--cache-dir DIR]",
        summary: "Shows the disk cache's size (stats), empties it (clear) or prints its folder (path).",
        positionals: PositionalSpec(name: "stats|clear|path", minimum: 1, maximum: 1),
        flags: [
            .option("cache-dir", "DIR", "the cache folder (default: $IMAGO_CACHE_DIR, else ~/.cache/imago)")
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let action = arguments.positionals[0]
        guard ["stats", "clear", "path"].contains(action) else {
            throw UsageError("unknown action \"\(action)\": use stats, clear or path")
        }
        let cache = DiskDataCache(configuration: .init(directory: directory(arguments.string("cache-dir"))))
        switch action {
        case "path":
            Console.print(cache.directory.path)
        case "stats":
            let stats = await cache.stats()
            Console.print("path: \(cache.directory.path)")
            Console.print("entries: \(stats.entries)")
            Console.print("bytes: \(stats.bytes) (\(ByteFormat.string(stats.bytes)))")
        default:
            let before = await cache.stats()
            await cache.removeAll()
            Console.print(
                "removed \(before.entries) entries (\(ByteFormat.string(before.bytes))) from \(cache.directory.path)")
        }
        return .success
    }

    /// `--cache-dir`, else the cache's default (`IMAGO_CACHE_DIR`, `$XDG_CACHE_HOME/imago`, `~/.cache/imago`).
    static func directory(_ flag: String?) -> URL {
        guard let flag, !flag.isEmpty else { return DiskDataCache.Configuration.defaultDirectory() }
        return URL(fileURLWithPath: (flag as NSString).expandingTildeInPath, isDirectory: true)
    }
}
