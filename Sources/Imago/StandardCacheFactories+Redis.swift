import Foundation

/// The shared cache tier: `redis` (`RedisDataCache`) and `tiered` (`TieredDataCache`).
extension PluginRegistry {
    /// `redis`: `url` (`redis://[:password@]host:port/db`), `keyPrefix`, `ttl` (seconds, set with each write; 0 for
    /// none), `maxEntryBytes`, `timeout` (seconds for connecting and each command), `retryInterval` (seconds to
    /// stand aside after a failure), `poolSize` (connections, each with a thread of its own).
    static let redisCacheFactory = PluginFactory<any DataCache>(
        name: "redis",
        defaultSettings: .object([
            "url": .string("redis://127.0.0.1:6379/0"), "keyPrefix": .string("imago:"), "ttl": .number(604_800),
            "maxEntryBytes": .number(Double(10 << 20)), "timeout": .number(0.25), "retryInterval": .number(5),
            "poolSize": .number(4),
        ])
    ) { reader in
        let url = try reader.string("url") ?? "redis://127.0.0.1:6379/0"
        let prefix = try reader.string("keyPrefix") ?? "imago:"
        guard !prefix.isEmpty else {
            // An empty prefix would let `clear` delete every key of the database.
            throw ConfigReader.error(reader.path(of: "keyPrefix"), "empty prefix")
        }
        return RedisDataCache(
            configuration: RedisDataCache.Configuration(
                endpoint: try RedisEndpoint(url: url, path: reader.path(of: "url")), keyPrefix: prefix,
                timeToLive: try reader.int("ttl", default: 604_800, in: 0...Int(Int32.max)),
                maxEntryBytes: try reader.int("maxEntryBytes", default: 10 << 20, in: 0...(512 << 20)),
                timeout: try reader.double("timeout", default: 0.25, in: 0.001...60),
                retryInterval: try reader.double("retryInterval", default: 5, in: 0...86_400),
                poolSize: try reader.int("poolSize", default: 4, in: 1...64)))
    }

    /// `tiered`: `layers`, a list of data cache specs (`"disk"`, `{"name": "redis", "settings": {…}}`), read in order,
    /// each built by the registry's own data cache factories (through the build context).
    static let tieredCacheFactory = PluginFactory<any DataCache>(
        name: "tiered",
        defaultSettings: .object(["layers": .array([.string("disk"), .string("redis")])])
    ) { reader, context in
        let specs = try reader.array("layers") ?? [.string("disk"), .string("redis")]
        guard !specs.isEmpty else { throw ConfigReader.error(reader.path(of: "layers"), "no layers") }
        let layers = try specs.enumerated().map { index, spec in
            let (name, cache) = try context.makeDataCache(spec, path: reader.path(of: "layers[\(index)]"))
            return TieredDataCache.Layer(name: name, cache: cache)
        }
        return TieredDataCache(layers: layers)
    }
}

extension PluginRegistry.Builder {
    /// Registers `redis` and `tiered`, whose layers are built with this registry's data cache factories.
    mutating func registerSharedCacheFactories() {
        add(PluginRegistry.redisCacheFactory)
        add(PluginRegistry.tieredCacheFactory)
    }
}
