import Foundation
import ImagoCaches
import ImagoContracts
import ImagoTestSupport
import Testing

@testable import ImagoRedis

/// The Redis cache, and a tiered disk-over-Redis cache, keep the DataCache contract against a real redis-server.
@Suite struct RedisDataCacheContractTests {
    @Test func redisDataCacheKeepsTheDataCacheContract() async throws {
        let server = try RedisServer()
        let url = server.url()
        let contract = DataCacheContract(
            makeCache: { try RedisFixtures.cache(url: url) },
            damage: { cache, key in try await RedisFixtures.flipByte(in: cache as! RedisDataCache, key: key) })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == DataCacheContract.Check.allCases.count - 2, "all but the byte-limit checks")
    }

    @Test func tieredDiskOverRedisKeepsTheDataCacheContract() async throws {
        let server = try RedisServer()
        let url = server.url()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imago-tiered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let contract = DataCacheContract(
            makeCache: {
                let disk = DiskDataCache(
                    configuration: .init(directory: root.appendingPathComponent(UUID().uuidString)))
                return TieredDataCache(layers: [
                    .init(name: "disk", cache: disk), .init(name: "redis", cache: try RedisFixtures.cache(url: url)),
                ])
            },
            damage: { cache, key in
                // Damage the entry in both layers: the disk file and the Redis value.
                let tiered = cache as! TieredDataCache
                let disk = tiered.layers[0].cache as! DiskDataCache
                try damageEveryFile(in: disk.directory)
                try await RedisFixtures.flipByte(in: tiered.layers[1].cache as! RedisDataCache, key: key)
            })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
