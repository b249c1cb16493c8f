import Foundation
import ImagoCaches
import ImagoContracts
import ImagoTestSupport
import Testing

@testable import ImagoS3

/// The `s3` data cache against a real moto server with authentication enforced (one per suite).
@Suite(.moto) struct S3DataCacheTests {
    /// A cache under a prefix of its own, so caches sharing the bucket never see each other's objects.
    private static func cache(
        _ fixture: MotoFixture, secret: String? = nil, retryInterval: Double = 5
    ) throws -> S3DataCache {
        try S3DataCache(
            configuration: .init(
                connection: fixture.configuration(secret: secret), bucket: fixture.bucket,
                prefix: "cache-\(UUID().uuidString)/", retryInterval: retryInterval),
            environment: [:])
    }

    /// Replaces the object of `key` with `transform` of its bytes, behind the cache's back.
    private static func rewrite(_ cache: S3DataCache, _ key: CacheKey, _ transform: (Data) -> Data) async throws {
        let fixture = try MotoFixture.shared
        let (_, stored) = try await cache.send("GET", cache.objectKey(for: key))
        try fixture.server.putObject(bucket: fixture.bucket, key: cache.objectKey(for: key), data: transform(stored))
    }

    private static func flipByte(_ cache: S3DataCache, _ key: CacheKey) async throws {
        try await rewrite(cache, key) { stored in
            var bytes = stored
            bytes[bytes.count / 2] ^= 0xFF
            return bytes
        }
    }

    @Test func keepsTheDataCacheContract() async throws {
        let fixture = try MotoFixture.shared
        let contract = DataCacheContract(
            makeCache: { try Self.cache(fixture) },
            damage: { cache, key in try await Self.flipByte(cache as! S3DataCache, key) })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == DataCacheContract.Check.allCases.count - 2, "all but the byte-limit checks")
    }

    @Test func keepsTheContractAsTheLayerUnderADiskCache() async throws {
        let fixture = try MotoFixture.shared
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imago-s3-tiered-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let contract = DataCacheContract(
            makeCache: {
                let disk = DiskDataCache(
                    configuration: .init(directory: root.appendingPathComponent(UUID().uuidString)))
                return TieredDataCache(layers: [
                    .init(name: "disk", cache: disk), .init(name: "s3", cache: try Self.cache(fixture)),
                ])
            },
            damage: { cache, key in
                let tiered = cache as! TieredDataCache
                let disk = tiered.layers[0].cache as! DiskDataCache
                try damageEveryFile(in: disk.directory)
                try await Self.flipByte(tiered.layers[1].cache as! S3DataCache, key)
            })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func aDamagedOrForeignObjectIsAMissAndIsDeleted() async throws {
        let fixture = try MotoFixture.shared
        let cache = try Self.cache(fixture)
        let key = CacheKey("https://example.com/a.png")
        let entry = DataCacheEntry(data: Data("original bytes".utf8), metadata: CacheMetadata(etag: "\"v1\""))
        try await cache.store(entry, for: key)
        #expect(await cache.entry(for: key)?.data == entry.data)
        #expect(await cache.entry(for: key)?.layer == "s3")

        try await Self.flipByte(cache, key)
        #expect(await cache.entry(for: key) == nil)
        #expect(cache.stats.damaged == 1)
        #expect(try await cache.objectKeys().isEmpty, "the damaged object was deleted")

        // Another key's entry copied under this key's name (a foreign object) is a miss too.
        let other = CacheKey("https://example.com/b.png")
        try await cache.store(entry, for: other)
        let (_, foreign) = try await cache.send("GET", cache.objectKey(for: other))
        try fixture.server.putObject(bucket: fixture.bucket, key: cache.objectKey(for: key), data: foreign)
        #expect(await cache.entry(for: key) == nil)
        #expect(await cache.entry(for: other)?.data == entry.data)
        #expect(cache.stats.damaged == 2)
    }

    @Test func aRefusingStoreIsAMissReportedOnceThenStoodAside() async throws {
        let fixture = try MotoFixture.shared
        let cache = try Self.cache(fixture, secret: "wrong-secret", retryInterval: 3600)
        let key = CacheKey("https://example.com/refused.png")
        let reported = Reports()
        let reporter = CacheFailureReporter { reported.add($0) }
        #expect(await cache.entry(for: key, reporting: reporter) == nil)
        #expect(reported.errors.count == 1)
        #expect(reported.errors.first?.kind == .cacheFailed)
        #expect(reported.errors.first?.reason.contains("403") == true)
        #expect(!"\(reported.errors)".contains(fixture.secretAccessKey))

        // Standing aside: no request reaches the store, the read misses, the write is skipped without error. Only
        // this key's requests are counted: other tests share the server and run meanwhile.
        let objectKey = cache.objectKey(for: key)
        func requests() throws -> Int {
            try ["GET", "PUT"].map { try fixture.server.requestCount($0, bucket: fixture.bucket, key: objectKey) }
                .reduce(0, +)
        }
        let before = try requests()
        #expect(before == 1)
        #expect(await cache.entry(for: key, reporting: reporter) == nil)
        try await cache.store(DataCacheEntry(data: Data([1])), for: key)
        #expect(try requests() == before)
        #expect(reported.errors.count == 1, "one report per outage")
        #expect(cache.stats.skipped == 2)
        #expect(cache.stats.failures == 1)
    }

    @Test func aFailedWriteThrows() async throws {
        let fixture = try MotoFixture.shared
        let cache = try Self.cache(fixture, secret: "wrong-secret", retryInterval: 0)
        let key = CacheKey("https://example.com/refused-write.png")
        let error = try await #require(throws: ImagoError.self) {
            try await cache.store(DataCacheEntry(data: Data([1])), for: key)
        }
        #expect(error.kind == .cacheFailed)
        #expect(!"\(error)".contains("wrong-secret"))
    }

    @Test func storesObjectsUnderItsPrefixWithMetadataHeaders() async throws {
        let fixture = try MotoFixture.shared
        let cache = try Self.cache(fixture)
        let key = CacheKey("https://example.com/c.png")
        try await cache.store(
            DataCacheEntry(data: Data("c".utf8), metadata: CacheMetadata(contentType: "image/png")), for: key)
        let keys = try await cache.objectKeys()
        #expect(keys == [cache.objectKey(for: key)])
        #expect(keys[0].hasPrefix(cache.configuration.prefix))
        let headers = S3DataCache.metadataHeaders(CacheMetadata(etag: "\"e\"", contentType: "image/png"))
        #expect(headers["x-amz-meta-imago-content-type"] == "image/png")
        #expect(headers["x-amz-meta-imago-etag"] == "\"e\"")
        #expect(try await cache.removeAllEntries() == 1)
        #expect(try await cache.objectKeys().isEmpty)
    }
}

/// Failures handed to a `CacheFailureReporter`.
private final class Reports: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var stored: [ImagoError] = []
    func add(_ error: ImagoError) { lock.withLock { stored.append(error) } }
    var errors: [ImagoError] { lock.withLock { stored } }
}
