import Foundation
import Imago

/// `imago cache stats|clear|path [--config FILE] [--cache-dir DIR]`: the configured data cache, layer by layer.
enum CacheCommand: Command {
    static let spec = CommandSpec(
        name: "cache", synopsis: "stats|clear|path [--config FILE] [--cache-dir DIR]",
        summary:
            "Shows the data cache's size (stats), empties it (clear) or prints its disk folder (path); with --config, "
            + "the configured cache (disk, redis or tiered, layer by layer; Redis only under its key prefix).",
        positionals: PositionalSpec(name: "stats|clear|path", minimum: 1, maximum: 1),
        flags: [
            .option("config", "FILE", "the configuration whose data cache to use (default: the disk cache)"),
            .option("cache-dir", "DIR", "the disk cache folder (default: $IMAGO_CACHE_DIR, else ~/.cache/imago)"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let action = arguments.positionals[0]
        guard ["stats", "clear", "path"].contains(action) else {
            throw UsageError("unknown action \"\(action)\": use stats, clear or path")
        }
        let layers = try configuredLayers(
            config: arguments.string("config"), cacheDirectory: arguments.string("cache-dir"))
        if action == "path" {
            let folders = layers.compactMap { ($0.cache as? DiskDataCache)?.directory.path }
            guard !folders.isEmpty else { throw ImagoError(.invalidConfiguration, "the data cache has no disk folder") }
            for folder in folders { Console.print(folder) }
            return .success
        }
        var failures = 0
        for layer in layers {
            do throws(ImagoError) {
                if action == "stats" { try await printStats(of: layer) } else { try await clear(layer) }
            } catch {
                Console.printError("imago cache: \(layer.name): \(error)")
                failures += 1
            }
        }
        return ExitStatus(failures: failures)
    }

    private static func printStats(of layer: TieredDataCache.Layer) async throws(ImagoError) {
        Console.print("cache: \(layer.name)")
        let entries: Int
        let bytes: Int
        switch layer.cache {
        case let disk as DiskDataCache:
            Console.print("path: \(disk.directory.path)")
            let stats = await disk.stats()
            (entries, bytes) = (stats.entries, stats.bytes)
        case let redis as RedisDataCache:
            Console.print("url: \(redis.configuration.endpoint)")
            Console.print("prefix: \(redis.configuration.keyPrefix)")
            let contents = try await redis.contents()
            (entries, bytes) = (contents.entries, contents.bytes)
        default:
            throw ImagoError(.invalidConfiguration, "cannot count the entries of this kind of cache")
        }
        Console.print("entries: \(entries)")
        Console.print("bytes: \(bytes) (\(ByteFormat.string(bytes)))")
    }

    private static func clear(_ layer: TieredDataCache.Layer) async throws(ImagoError) {
        switch layer.cache {
        case let disk as DiskDataCache:
            let before = await disk.stats()
            await disk.removeAll()
            Console.print(
                "removed \(before.entries) entries (\(ByteFormat.string(before.bytes))) from \(disk.directory.path)")
        case let redis as RedisDataCache:
            let removed = try await redis.removeAllEntries()
            Console.print(
                "removed \(removed) entries from \(redis.configuration.endpoint) under "
                    + "\"\(redis.configuration.keyPrefix)\"")
        default:
            await layer.cache.removeAll()
            Console.print("cleared the \(layer.name) cache")
        }
    }

    /// The layers of the data cache `--config` names (the disk cache by default), disk folders set by
    /// `--cache-dir`, else the cache's default (`IMAGO_CACHE_DIR`, `$XDG_CACHE_HOME/imago`, `~/.cache/imago`).
    static func configuredLayers(config: String?, cacheDirectory: String?) throws -> [TieredDataCache.Layer] {
        let factories = PluginRegistry.standardFactories()
        var configuration = try ConfigCommand.configuration(file: config, factories: factories)
        if let cacheDirectory, !cacheDirectory.isEmpty {
            let folder = (cacheDirectory as NSString).expandingTildeInPath
            configuration.dataCache = DataCacheLayers.settingDiskDirectory(configuration.dataCache, to: folder)
        }
        // Only the data cache is built: the other plugins are not needed here.
        let cacheOnly = ImagoConfiguration(dataCache: configuration.dataCache)
        guard let spec = cacheOnly.dataCache, let cache = try factories.configured(by: cacheOnly).dataCache else {
            throw ImagoError(.invalidConfiguration, "the configuration names no data cache", source: config)
        }
        return DataCacheLayers.layers(of: cache, name: spec.name)
    }
}
