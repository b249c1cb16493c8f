import Foundation
import Imago
import ImagoTestSupport
import Testing

/// The loader over a tiered disk-over-Redis cache, as a fleet member runs it.
@Suite final class RedisLoaderTests {
    let server: RedisServer
    let root: URL

    init() throws {
        server = try RedisServer()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imago-redis-loader-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A loader (no memory cache) whose data cache is disk (in `folder`) over Redis, built from a configuration.
    func loader(folder: String, prefix: String) throws -> (ImageLoader, TieredDataCache) {
        let factories = PluginRegistry.standardFactories()
        let settings: JSONValue = .object([
            "layers": .array([
                .object([
                    "name": .string("disk"),
                    "settings": .object(["directory": .string(root.appendingPathComponent(folder).path)]),
                ]),
                .object([
                    "name": .string("redis"),
                    "settings": .object([
                        "url": .string(server.url()), "keyPrefix": .string(prefix), "timeout": .number(5),
                    ]),
                ]),
            ])
        ])
        var configuration = factories.standardConfiguration()
        configuration.imageCache = nil
        configuration.dataCache = PluginSpec("tiered", settings: settings)
        let registry = try factories.configured(by: configuration)
        return (ImageLoader(registry: registry), try #require(registry.dataCache as? TieredDataCache))
    }

    @Test func aRedisHitBackFillsTheLocalDisk() async throws {
        let (data, raster) = try NoiseImage.png(seed: 9)
        let origin = try CountingOrigin(files: ["p.png": data])
        let (first, _) = try loader(folder: "one", prefix: "backfill:")
        let (second, tiers) = try loader(folder: "two", prefix: "backfill:")
        let request = ImageRequest(url: origin.url("p.png"))

        #expect(try await first.image(for: request).origin == .network)
        // The loader writes its data cache in the background: what another machine reads is there once it is done.
        await first.waitForPendingWrites()
        let shared = try await second.image(for: request)
        #expect(shared.origin == .dataCache && shared.cacheLayer == "redis")
        #expect(shared.image.raster == raster)
        let disk = try #require(tiers.layers[0].cache as? DiskDataCache)
        #expect(await disk.stats().entries == 1, "the Redis hit was copied into the second loader's disk")
        let local = try await second.image(for: request)
        #expect(local.origin == .dataCache && local.cacheLayer == "disk")
        #expect(local.image.raster == raster)
        #expect(try await origin.count("p.png") == 1)
    }

    @Test func credentialedAnswersReachOnlyTheSameCredentials() async throws {
        let (data, raster) = try NoiseImage.png(seed: 10)
        let origin = try CountingOrigin(files: ["private.png": data])
        let (first, tiers) = try loader(folder: "private-1", prefix: "private:")
        let (second, _) = try loader(folder: "private-2", prefix: "private:")
        let url = origin.url("private.png")
        let alice = ImageRequest(url: url, headers: ["Authorization": "Bearer alice"])
        #expect(try await first.image(for: alice).origin == .network)
        await first.waitForPendingWrites()
        // Another machine with the same credentials is served by Redis...
        let again = try await second.image(for: alice)
        #expect(again.origin == .dataCache && again.cacheLayer == "redis" && again.image.raster == raster)
        // ...but other credentials, or none, never get Alice's answer.
        let bob = ImageRequest(url: url, headers: ["authorization": "Bearer bob"])
        #expect(try await second.image(for: bob).origin == .network)
        #expect(try await second.image(for: ImageRequest(url: url)).origin == .network)
        #expect(try await second.image(for: ImageRequest(url: url, headers: ["Cookie": "s=1"])).origin == .network)
        #expect(try await origin.count("private.png") == 4)
        let redis = try #require(tiers.layers[1].cache as? RedisDataCache)
        #expect(try await redis.contents().entries == 4, "one entry per set of credentials")
    }
}
