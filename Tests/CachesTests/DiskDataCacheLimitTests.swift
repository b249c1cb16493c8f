import Foundation
import Testing

@testable import ImagoCaches

@Suite struct DiskDataCacheLimitTests {
    /// The size of the file of an entry with a `size`-byte body under a one-byte key.
    func fileSize(bodySize: Int) throws -> Int {
        try CacheEntryCodec.prefix(for: Generated.entry("k", generation: 0, size: bodySize), key: "k").count + bodySize
    }

    @Test func evictsLeastRecentlyUsedPastTheLimit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let size = try fileSize(bodySize: 1000)
        // Ten entries fit; the eleventh takes the folder over, and eviction goes down to 90% (two entries).
        let clock = DiskClock()
        let cache = DiskDataCache(
            configuration: .init(directory: folder.url, sizeLimit: size * 10 + size / 2), now: clock.now)
        let keys = "abcdefghij".map { CacheKey(String($0)) }
        for key in keys { try await cache.store(Generated.entry(key, generation: 0, size: 1000), for: key) }
        #expect(await cache.entry(for: "a") != nil, "reading marks a used")
        try await cache.store(Generated.entry("k", generation: 0, size: 1000), for: "k")
        // Eviction runs in the background, started by the write that went over.
        await cache.waitForMaintenance()
        let kept = Set(folder.entryNames)
        #expect(!kept.contains(DiskDataCache.fileName(for: "b")))
        #expect(!kept.contains(DiskDataCache.fileName(for: "c")))
        for key in ["a", "d", "e", "f", "g", "h", "i", "j", "k"] as [CacheKey] {
            #expect(kept.contains(DiskDataCache.fileName(for: key)), "\(key) is kept")
        }
        let stats = await cache.stats()
        #expect(stats.evictions == 2)
        #expect(stats.bytes == folder.entryBytes)
    }

    @Test func limitHoldsWhileInUse() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let limit = 60_000
        let cache = DiskDataCache(configuration: .init(directory: folder.url, sizeLimit: limit))
        var largest = 0
        for step in 0..<300 {
            let key = CacheKey("k\((step * 37) % 90)")
            try await cache.store(Generated.entry(key, generation: step), for: key)
            if step % 3 == 0, let entry = await cache.entry(for: CacheKey("k\((step * 11) % 90)")) {
                #expect(Generated.isExact(entry, for: CacheKey("k\((step * 11) % 90)")))
            }
            await cache.waitForMaintenance()
            largest = max(largest, folder.entryBytes)
        }
        #expect(largest <= limit)
        let stats = await cache.stats()
        #expect(stats.evictions > 0)
        #expect(stats.bytes == folder.entryBytes)
    }

    /// The first use scans the folder in the background (a write does not wait for it), and the scan still
    /// counts what other runs left together with what this one wrote meanwhile.
    @Test func theBackgroundFirstScanCountsWhatOtherRunsLeft() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = DiskDataCache(configuration: .init(directory: folder.url))
        for index in 0..<20 {
            try await writer.store(DataCacheEntry(data: Data([UInt8(index)])), for: CacheKey("old\(index)"))
        }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        try await cache.store(DataCacheEntry(data: Data([1])), for: "new")
        await cache.waitForMaintenance()
        let stats = await cache.stats()
        #expect(stats.entries == 21)
        #expect(stats.bytes == folder.entryBytes)
    }

    @Test func entriesLargerThanTheLimitAreNotStored() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url, sizeLimit: 1000))
        try await cache.store(Generated.entry("small", generation: 0, size: 100), for: "small")
        try await cache.store(Generated.entry("big", generation: 0, size: 2000), for: "big")
        #expect(await cache.entry(for: "big") == nil)
        #expect(await cache.entry(for: "small") != nil)
    }

    @Test func sweepsRemoveEntriesUnusedPastMaxAge() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clock = DiskClock()
        let writer = DiskDataCache(configuration: .init(directory: folder.url, maxAge: 100), now: clock.now)
        for index in 0..<5 {
            try await writer.store(DataCacheEntry(data: Data([UInt8(index)])), for: CacheKey("\(index)"))
        }
        clock.advance(150)
        try await writer.store(DataCacheEntry(data: Data([9])), for: "recent")
        // A new instance scans the folder on its first stats call.
        let reader = DiskDataCache(configuration: .init(directory: folder.url, maxAge: 100), now: clock.now)
        let stats = await reader.stats()
        #expect(stats.entries == 1)
        #expect(stats.evictions == 5)
        #expect(folder.entryNames == [DiskDataCache.fileName(for: "recent")])
    }

    @Test func abandonedTemporaryFilesAreIgnoredAndCleanedUp() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = folder.url.appendingPathComponent(DiskDataCache.temporaryPrefix + "killed")
        let live = folder.url.appendingPathComponent(DiskDataCache.temporaryPrefix + "writing")
        try Data("partial".utf8).write(to: old)
        try Data("partial".utf8).write(to: live)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        #expect(await cache.stats().entries == 0, "temporary files are not entries")
        #expect(!FileManager.default.fileExists(atPath: old.path), "an hour-old temporary file is a leftover")
        #expect(FileManager.default.fileExists(atPath: live.path), "a recent one may be another process writing")
    }

    @Test func concurrentReadersAndWritersNeverSeeDamage() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url, sizeLimit: 40_000))
        let wrong = Counter()
        let hits = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<12 {
                group.addTask {
                    for step in 0..<120 {
                        let key = CacheKey("k\((task * 5 + step * 3) % 12)")
                        switch step % 4 {
                        case 0: try await cache.store(Generated.entry(key, generation: task * 1000 + step), for: key)
                        case 3 where step % 40 == 3: await cache.removeEntry(for: key)
                        default:
                            if let entry = await cache.entry(for: key) {
                                hits.increment()
                                if !Generated.isExact(entry, for: key) { wrong.increment() }
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let stats = await cache.stats()
        #expect(wrong.value == 0)
        #expect(hits.value > 0)
        #expect(stats.damaged == 0, "a reader never sees a partial write")
        #expect(folder.temporaryNames.isEmpty)
        #expect(folder.entryBytes <= 40_000)
    }

    @Test func instancesShareOneFolder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let limit = 50_000
        // Two instances stand for two processes: neither knows what the other wrote until it scans the folder.
        let caches = (0..<2).map { _ in DiskDataCache(configuration: .init(directory: folder.url, sizeLimit: limit)) }
        let wrong = Counter()
        let largest = Maximum()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, cache) in caches.enumerated() {
                group.addTask {
                    for step in 0..<200 {
                        let key = CacheKey("k\((index * 7 + step * 5) % 40)")
                        if step % 2 == 0 {
                            try await cache.store(Generated.entry(key, generation: index * 10_000 + step), for: key)
                        } else if let entry = await cache.entry(for: key), !Generated.isExact(entry, for: key) {
                            wrong.increment()
                        }
                        if step % 10 == 0 { await cache.removeEntry(for: CacheKey("k\(step % 40)")) }
                    }
                }
            }
            group.addTask {
                // Watches the folder while both write.
                for _ in 0..<200 {
                    largest.record(folder.entryBytes)
                    try await Task.sleep(nanoseconds: 1_000_000)
                }
            }
            try await group.waitForAll()
        }
        #expect(wrong.value == 0)
        // Each instance learns of the other's writes when it rescans, at least every limit/8 bytes it writes,
        // so the folder overshoots by at most that much per instance (plus an entry being written).
        let maxEntry = try CacheEntryCodec.prefix(for: Generated.entry("k00", generation: 0), key: "k00").count + 3100
        #expect(largest.value <= limit + 2 * (limit / 8 + maxEntry))
        for cache in caches { #expect(await cache.stats().damaged == 0) }
        #expect(folder.temporaryNames.isEmpty)
    }
}
