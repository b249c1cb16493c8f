import Foundation
import Testing

@testable import ImagoCaches

/// Damaged, partial and foreign files must read as misses and be removed, never served.
@Suite struct DiskDataCacheCorruptionTests {
    /// A folder holding one valid entry for `key`, and the bytes of its file.
    func folderWithEntry(_ key: CacheKey, size: Int = 300) async throws -> (TemporaryFolder, DiskDataCache, Data) {
        let folder = try TemporaryFolder()
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        try await cache.store(Generated.entry(key, generation: 1, size: size), for: key)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.entryPath(key)))
        return (folder, cache, bytes)
    }

    @Test func truncatedFilesAreMissesAndRemoved() async throws {
        let (folder, cache, bytes) = try await folderWithEntry("k")
        defer { folder.remove() }
        for length in [0, 1, 8, 39, 40, 41, 60, bytes.count / 2, bytes.count - 1] {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: folder.entryPath("k")))
            #expect(await cache.entry(for: "k") == nil, "truncated to \(length)")
            #expect(!FileManager.default.fileExists(atPath: folder.entryPath("k")), "truncated to \(length)")
        }
        #expect(await cache.stats().damaged == 9)
    }

    @Test func everyFlippedByteIsCaught() async throws {
        let (folder, cache, bytes) = try await folderWithEntry("k", size: 64)
        defer { folder.remove() }
        // Every position: the header (magic, version, lengths, checksum), the key, the metadata and the body.
        for position in 0..<bytes.count {
            var damaged = bytes
            damaged[position] ^= 0x10
            try damaged.write(to: URL(fileURLWithPath: folder.entryPath("k")))
            #expect(await cache.entry(for: "k") == nil, "byte \(position) of \(bytes.count)")
            #expect(!FileManager.default.fileExists(atPath: folder.entryPath("k")), "byte \(position)")
        }
        try bytes.write(to: URL(fileURLWithPath: folder.entryPath("k")))
        #expect(
            await cache.entry(for: "k") == Generated.entry("k", generation: 1, size: 64), "the intact file still reads")
    }

    @Test func appendedBytesAreCaught() async throws {
        let (folder, cache, bytes) = try await folderWithEntry("k")
        defer { folder.remove() }
        try (bytes + Data([0])).write(to: URL(fileURLWithPath: folder.entryPath("k")))
        #expect(await cache.entry(for: "k") == nil)
        #expect(folder.entryNames.isEmpty)
    }

    @Test func filesSwappedBetweenKeysAreForeign() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        try await cache.store(Generated.entry("a", generation: 1), for: "a")
        try await cache.store(Generated.entry("b", generation: 2), for: "b")
        let pathA = folder.entryPath("a")
        let pathB = folder.entryPath("b")
        try FileManager.default.moveItem(atPath: pathA, toPath: pathA + ".swap")
        try FileManager.default.moveItem(atPath: pathB, toPath: pathA)
        try FileManager.default.moveItem(atPath: pathA + ".swap", toPath: pathB)
        #expect(await cache.entry(for: "a") == nil)
        #expect(await cache.entry(for: "b") == nil)
        #expect(folder.entryNames.isEmpty, "both foreign files are removed")
    }

    @Test func foreignFilesAtAnEntryNameAreRemoved() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = DiskDataCache(configuration: .init(directory: folder.url))
        let junk = [Data(), Data("not a cache entry at all, just some text".utf8), Data(repeating: 0, count: 4096)]
        for bytes in junk {
            try bytes.write(to: URL(fileURLWithPath: folder.entryPath("k")))
            #expect(await cache.entry(for: "k") == nil)
            #expect(folder.entryNames.isEmpty)
        }
        #expect(await cache.stats().damaged == 3)
    }

    @Test func aNewerFormatVersionIsAMiss() async throws {
        let (folder, cache, bytes) = try await folderWithEntry("k")
        defer { folder.remove() }
        var newer = bytes
        newer[8] = 2
        try newer.write(to: URL(fileURLWithPath: folder.entryPath("k")))
        #expect(await cache.entry(for: "k") == nil)
    }
}
