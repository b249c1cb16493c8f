import Foundation

/// The built-in cache factories.
extension PluginRegistry {
    /// `memory`: `costLimit` (bytes; null means 15% of physical memory, at most 512 MiB), `countLimit`,
    /// `entryCostLimit` (bytes; null means a quarter of `costLimit`), `timeToLive` (seconds; null means none).
    static let memoryCacheFactory = PluginFactory<any ImageCache>(
        name: "memory",
        defaultSettings: .object([
            "costLimit": .null, "countLimit": .number(1000), "entryCostLimit": .null, "timeToLive": .null,
        ])
    ) { reader in
        let physical = MemoryImageCache.Configuration.defaultCostLimit(
            physicalMemory: ProcessInfo.processInfo.physicalMemory)
        let costLimit = try reader.optionalInt("costLimit", in: 0...Int.max) ?? physical
        return MemoryImageCache(
            configuration: MemoryImageCache.Configuration(
                costLimit: costLimit,
                countLimit: try reader.int("countLimit", default: 1000, in: 0...Int.max),
                entryCostLimit: try reader.optionalInt("entryCostLimit", in: 0...Int.max),
                timeToLive: try reader.optionalDouble("timeToLive", in: 0...Double.greatestFiniteMagnitude)))
    }

    /// `disk`: `directory` (null means `$IMAGO_CACHE_DIR`, else `$XDG_CACHE_HOME/imago`, else `~/.cache/imago`),
    /// `sizeLimit` (bytes), `maxAge` (seconds; null means none), `synchronizesWrites`, `retryInterval` (seconds),
    /// `defaultMaxAge` (seconds: the cap on heuristic freshness of answers without any; 604800, 7 days).
    static let diskCacheFactory = PluginFactory<any DataCache>(
        name: "disk",
        defaultSettings: .object([
            "directory": .null, "sizeLimit": .number(Double(256 << 20)), "maxAge": .null,
            "synchronizesWrites": .bool(false), "retryInterval": .number(60),
            "defaultMaxAge": .number(CacheMetadata.standardDefaultMaxAge),
        ])
    ) { reader in
        let directory = try reader.string("directory").map { path -> URL in
            guard !path.isEmpty else { throw ConfigReader.error(reader.path(of: "directory"), "empty path") }
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        }
        return DiskDataCache(
            configuration: DiskDataCache.Configuration(
                directory: directory,
                sizeLimit: try reader.int("sizeLimit", default: 256 << 20, in: 0...Int.max),
                maxAge: try reader.optionalDouble("maxAge", in: 0...Double.greatestFiniteMagnitude),
                synchronizesWrites: try reader.bool("synchronizesWrites", default: false),
                retryInterval: try reader.double("retryInterval", default: 60, in: 0...86_400),
                defaultMaxAge: try reader.double(
                    "defaultMaxAge", default: CacheMetadata.standardDefaultMaxAge, in: 0...Double(Int32.max))))
    }
}

extension PluginRegistry.Builder {
    /// Registers the built-in cache factories: `memory` (`MemoryImageCache`) and `disk` (`DiskDataCache`).
    mutating func registerStandardCacheFactories() {
        add(PluginRegistry.memoryCacheFactory)
        add(PluginRegistry.diskCacheFactory)
    }
}
