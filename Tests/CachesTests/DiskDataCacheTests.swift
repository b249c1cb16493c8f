import Foundation
import Testing

@testable import ImagoCaches

@Suite struct DiskDataCacheTests {
    @Test func storesAndReadsBytesWithMetadata() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        let entry = DataCacheEntry(
            data: Data("hello".utf8),
            metadata: CacheMetadata(
                etag: "\"abc\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", expires: Date().addingTimeInterval(60),
                storedAt: Date(), contentType: "image/png"))
        try await cache.store(entry, for: "https://example.com/a.png")
        #expect(await cache.entry(for: "https://example.com/a.png") == entry)
        #expect(await cache.entry(for: "https://example.com/b.png") == nil)
        #expect(folder.entryNames == [SHA256.hex(Array("https://example.com/a.png".utf8)) + ".imago"])
        #expect(folder.temporaryNames.isEmpty)
    }

    @Test func entriesOutliveTheInstance() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let keys: [CacheKey] = (0..<20).map { CacheKey("key \($0)") }
        let writer = DiskDataCache(configuration: .init(directory: folder.url))
        for (index, key) in keys.enumerated() {
            try await writer.store(Generated.entry(key, generation: index), for: key)
        }
        let reader = DiskDataCache(configuration: .init(directory: folder.url))
        for (index, key) in keys.enumerated() {
            #expect(await reader.entry(for: key) == Generated.entry(key, generation: index))
        }
        let stats = await reader.stats()
        #expect(stats.entries == 20)
        #expect(stats.bytes == folder.entryBytes)
        #expect(stats.hits == 20)
    }

    @Test func replacesAndRemovesEntries() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        try await cache.store(Generated.entry("a", generation: 1), for: "a")
        try await cache.store(Generated.entry("a", generation: 2), for: "a")
        try await cache.store(Generated.entry("b", generation: 1), for: "b")
        #expect(await cache.entry(for: "a") == Generated.entry("a", generation: 2))
        await cache.removeEntry(for: "a")
        #expect(await cache.entry(for: "a") == nil)
        #expect(await cache.entry(for: "b") != nil)
        let stats = await cache.stats()
        #expect(stats.entries == 1)
        #expect(stats.bytes == folder.entryBytes)
        #expect(stats.writes == 3)
        #expect(stats.hits == 2)
        #expect(stats.misses == 1)
    }

    @Test func removeAllLeavesOtherFilesAlone() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let other = folder.url.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: other)
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        for index in 0..<5 {
            try await cache.store(Generated.entry(CacheKey("k\(index)"), generation: index), for: CacheKey("k\(index)"))
        }
        await cache.removeAll()
        #expect(folder.entryNames.isEmpty)
        #expect(FileManager.default.fileExists(atPath: other.path))
        #expect(await cache.stats().entries == 0)
        #expect(await cache.entry(for: "k1") == nil)
    }

    @Test func storesEmptyBodiesAndLongKeys() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        let longKey = CacheKey("data:image/png;base64," + String(repeating: "QUJD", count: 20_000))
        try await cache.store(DataCacheEntry(data: Data()), for: "empty")
        try await cache.store(Generated.entry(longKey, generation: 3), for: longKey)
        #expect(await cache.entry(for: "empty")?.data == Data())
        #expect(await cache.entry(for: longKey) == Generated.entry(longKey, generation: 3))
    }

    @Test func createsItsFolderOnFirstWriteOnly() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let nested = folder.url.appendingPathComponent("a/b/imago")
        let cache = DiskDataCache(configuration: .init(directory: nested))
        #expect(await cache.entry(for: "x") == nil)
        #expect(!FileManager.default.fileExists(atPath: nested.path))
        try await cache.store(Generated.entry("x", generation: 0), for: "x")
        #expect(await cache.entry(for: "x") != nil)
    }

    @Test func dropsEntriesPastMaxAgeWhenRead() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clock = DiskClock()
        let cache = DiskDataCache(configuration: .init(directory: folder.url, maxAge: 3600), now: clock.now)
        try await cache.store(
            DataCacheEntry(data: Data([1, 2, 3]), metadata: CacheMetadata(storedAt: clock.now())), for: "a")
        clock.advance(3000)
        #expect(await cache.entry(for: "a") != nil)
        clock.advance(1000)
        #expect(await cache.entry(for: "a") == nil, "reads do not extend the age, which counts from storing")
        #expect(folder.entryNames.isEmpty)
    }

    @Test func defaultFolderFollowsTheEnvironment() {
        typealias Configuration = DiskDataCache.Configuration
        #expect(
            Configuration.defaultDirectory(environment: ["IMAGO_CACHE_DIR": "/x/imago", "XDG_CACHE_HOME": "/y"]).path
                == "/x/imago")
        #expect(Configuration.defaultDirectory(environment: ["XDG_CACHE_HOME": "/y", "HOME": "/h"]).path == "/y/imago")
        #expect(
            Configuration.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).path
                == "/h/.cache/imago")
        #expect(Configuration.defaultDirectory(environment: ["HOME": "/h"]).path == "/h/.cache/imago")
        #expect(DiskDataCache(configuration: .init(directory: nil)).directory.path.hasSuffix("imago"))
    }
}
