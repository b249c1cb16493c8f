import Foundation
import Imago
import Testing

/// The `redis` and `tiered` data cache factories read their settings and name bad ones by path.
@Suite struct SharedCacheFactoriesTests {
    func configured(_ dataCache: JSONValue) throws -> PluginRegistry {
        let factories = PluginRegistry.standardFactories()
        let configuration = try ImagoConfiguration(
            json: .object(["dataCache": dataCache]),
            defaults: factories.defaultConfiguration(transports: [], codecs: []))
        return try factories.configured(by: configuration)
    }

    @Test func redisSettingsAreRead() throws {
        let registry = try configured(
            .object([
                "name": .string("redis"),
                "settings": .object([
                    "url": .string("redis://:pw@127.0.0.9:6380/4"), "keyPrefix": .string("fleet:"), "ttl": .number(60),
                    "maxEntryBytes": .number(1000), "timeout": .number(0.5), "retryInterval": .number(2),
                    "poolSize": .number(3),
                ]),
            ]))
        let redis = try #require(registry.dataCache as? RedisDataCache)
        #expect(
            redis.configuration
                == .init(
                    endpoint: .init(host: "127.0.0.9", port: 6380, password: "pw", database: 4), keyPrefix: "fleet:",
                    timeToLive: 60, maxEntryBytes: 1000, timeout: 0.5, retryInterval: 2, poolSize: 3))
    }

    @Test func redisDefaultsAreTheIssuesOnes() throws {
        let redis = try #require(try configured(.string("redis")).dataCache as? RedisDataCache)
        #expect(redis.configuration == RedisDataCache.Configuration())
        #expect(redis.configuration.keyPrefix == "imago:" && redis.configuration.timeToLive == 604_800)
        #expect(redis.configuration.maxEntryBytes == 10 << 20 && redis.configuration.timeout == 0.25)
        #expect(redis.configuration.retryInterval == 5)
    }

    @Test func tieredBuildsItsLayersInOrder() throws {
        let registry = try configured(
            .object([
                "name": .string("tiered"),
                "settings": .object([
                    "layers": .array([
                        .object(["name": .string("disk"), "settings": .object(["directory": .string("/tmp/imago-t")])]),
                        .string("redis"),
                    ])
                ]),
            ]))
        let tiered = try #require(registry.dataCache as? TieredDataCache)
        #expect(tiered.layers.map(\.name) == ["disk", "redis"])
        #expect((tiered.layers[0].cache as? DiskDataCache)?.directory.path == "/tmp/imago-t")
        #expect(tiered.layers[1].cache is RedisDataCache)
    }

    @Test func badSettingsNameTheirPath() {
        let cases: [(JSONValue, String)] = [
            (
                .object(["name": .string("redis"), "settings": .object(["url": .string("http://x")])]),
                "dataCache.settings.url: not a redis:// URL"
            ),
            (
                .object(["name": .string("redis"), "settings": .object(["keyPrefix": .string("")])]),
                "dataCache.settings.keyPrefix: empty prefix"
            ),
            (
                .object(["name": .string("redis"), "settings": .object(["timeout": .number(0)])]),
                "dataCache.settings.timeout"
            ),
            (
                .object([
                    "name": .string("tiered"),
                    "settings": .object(["layers": .array([.string("disk"), .string("glacier")])]),
                ]),
                "dataCache.settings.layers[1]: unknown data cache \"glacier\""
            ),
            (
                .object([
                    "name": .string("tiered"),
                    "settings": .object(["layers": .array([.string("disk"), .string("s3")])]),
                ]),
                "dataCache.settings.layers[1].settings.bucket: the bucket to keep the entries in is required"
            ),
            (
                .object(["name": .string("s3"), "settings": .object(["bucket": .string("b"), "prefix": .string("")])]),
                "dataCache.settings.prefix: empty prefix"
            ),
            (
                .object(["name": .string("s3"), "settings": .object(["bucket": .string("Bad_Bucket")])]),
                "dataCache.settings.bucket: invalid bucket name"
            ),
            (
                .object([
                    "name": .string("s3"),
                    "settings": .object(["bucket": .string("ok-bucket"), "endpoint": .string("ftp://x")]),
                ]),
                "dataCache.settings.endpoint: not an http(s) URL with a host"
            ),
            (
                .object(["name": .string("tiered"), "settings": .object(["layers": .array([])])]),
                "dataCache.settings.layers: no layers"
            ),
            (
                .object([
                    "name": .string("tiered"),
                    "settings": .object([
                        "layers": .array([.object(["name": .string("disk"), "settings": .object(["x": .null])])])
                    ]),
                ]), "dataCache.settings.layers[0].settings.x: unknown key"
            ),
        ]
        for (spec, message) in cases {
            #expect("\(spec)") {
                try configured(spec)
            } throws: { error in
                (error as? ImagoError)?.reason.contains(message) == true
            }
        }
    }
}
