import Foundation
import Synchronization
import Testing

@testable import ImagoCaches

#if canImport(Glibc)
    import Glibc
#endif

/// A full disk or an unwritable folder makes the cache step aside: stores throw, reads go on, one report.
@Suite struct DiskDataCacheFailureTests {
    /// File writes that fail with `ENOSPC` (after writing `partialBytes` bytes) while `failing` is set.
    final class FullDisk: Sendable {
        let failing = Mutex(false)
        let attempts = Mutex(0)
        let partialBytes: Int

        init(partialBytes: Int = 0) { self.partialBytes = partialBytes }

        var files: CacheFiles {
            var files = CacheFiles()
            files.write = { descriptor, bytes in
                self.attempts.withLock { $0 += 1 }
                guard self.failing.withLock({ $0 }) else {
                    return Foundation.write(descriptor, bytes.baseAddress, bytes.count)
                }
                if self.partialBytes > 0, bytes.count > self.partialBytes {
                    return Foundation.write(descriptor, bytes.baseAddress, self.partialBytes)
                }
                errno = ENOSPC
                return -1
            }
            return files
        }
    }

    @Test func aFullDiskMakesTheCacheStepAsideAndReportOnce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let disk = FullDisk(partialBytes: 100)
        let log = ErrorLog()
        let clock = DiskClock()
        let cache = DiskDataCache(
            configuration: .init(directory: folder.url, retryInterval: 60), onError: log.record, now: clock.now,
            files: disk.files)
        try await cache.store(Generated.entry("kept", generation: 1), for: "kept")
        disk.failing.withLock { $0 = true }

        for index in 0..<3 {
            await #expect {
                try await cache.store(Generated.entry("new", generation: index), for: "new")
            } throws: { error in
                (error as? ImagoError)?.kind == .cacheFailed
                    && (error as? ImagoError)?.reason.contains("No space left on device") == true
            }
        }
        #expect(log.all.count == 1, "reported once")
        #expect(log.all.first?.source == folder.url.standardizedFileURL.path)
        #expect(cache.lastError == log.all.first)
        let attemptsWhileAside = disk.attempts.withLock { $0 }
        await #expect(throws: ImagoError.self) {
            try await cache.store(Generated.entry("new", generation: 9), for: "new")
        }
        #expect(disk.attempts.withLock { $0 } == attemptsWhileAside, "while aside, stores do not touch the disk")
        #expect(await cache.entry(for: "kept") == Generated.entry("kept", generation: 1), "reads go on")
        #expect(await cache.entry(for: "new") == nil)
        #expect(folder.temporaryNames.isEmpty, "a failed write leaves no temporary file")
        #expect(folder.entryNames.count == 1)

        // After the retry interval the cache tries again: still full, so it stays aside without a new report.
        clock.advance(61)
        await #expect(throws: ImagoError.self) {
            try await cache.store(Generated.entry("new", generation: 1), for: "new")
        }
        #expect(log.all.count == 1)

        // Space is back: the next write after the interval succeeds and clears the error.
        disk.failing.withLock { $0 = false }
        clock.advance(61)
        try await cache.store(Generated.entry("new", generation: 2), for: "new")
        #expect(cache.lastError == nil)
        #expect(await cache.entry(for: "new") == Generated.entry("new", generation: 2))

        // A new failure after a success is reported again.
        disk.failing.withLock { $0 = true }
        await #expect(throws: ImagoError.self) { try await cache.store(Generated.entry("x", generation: 1), for: "x") }
        #expect(log.all.count == 2)
        #expect(await cache.stats().failedWrites == 6)
    }

    @Test func aFullFileSystemIsSurvived() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A real 64 KiB tmpfs when we may mount one (as root); otherwise the same failure, injected.
        let mounted = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]) == 0
        defer { if mounted { _ = Self.run("/bin/umount", [folder.path]) } }
        let disk = FullDisk()
        let log = ErrorLog()
        let cache = DiskDataCache(
            configuration: .init(directory: folder.url, sizeLimit: 1 << 30), onError: log.record, now: { Date() },
            files: mounted ? CacheFiles() : disk.files)
        var stored: [CacheKey] = []
        var failures = 0
        for index in 0..<20 {
            let key = CacheKey("k\(index)")
            if !mounted, index == 5 { disk.failing.withLock { $0 = true } }
            do {
                try await cache.store(Generated.entry(key, generation: index, size: 12_000), for: key)
                stored.append(key)
            } catch let error as ImagoError {
                #expect(error.kind == .cacheFailed)
                failures += 1
            }
        }
        #expect(failures > 0)
        #expect(!stored.isEmpty)
        #expect(log.all.count == 1)
        #expect(log.all.first?.reason.contains("No space left on device") == true)
        for (index, key) in (0..<20).map({ ($0, CacheKey("k\($0)")) }) {
            let entry = await cache.entry(for: key)
            if stored.contains(key) {
                #expect(entry == Generated.entry(key, generation: index, size: 12_000))
            } else {
                #expect(entry == nil)
            }
        }
        #expect(folder.temporaryNames.isEmpty)
    }

    @Test func anUnwritableFolderIsSurvived() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A folder below a regular file cannot be created, even by root (chmod would not stop root).
        let file = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let log = ErrorLog()
        let cache = DiskDataCache(
            configuration: .init(directory: file.appendingPathComponent("imago")), onError: log.record)
        await #expect(throws: ImagoError.self) { try await cache.store(Generated.entry("k", generation: 0), for: "k") }
        await #expect(throws: ImagoError.self) { try await cache.store(Generated.entry("k", generation: 0), for: "k") }
        #expect(await cache.entry(for: "k") == nil)
        #expect(log.all.count == 1)
        #expect(log.all.first?.kind == .cacheFailed)
        #expect(log.all.first?.reason.contains("cannot create folder") == true)
        let stats = await cache.stats()
        #expect(stats.entries == 0)
        #expect(stats.failedWrites == 2)
    }

    /// Runs a command quietly; its exit status.
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
