import Foundation
import Testing

@testable import ImagoCaches

#if canImport(Glibc)
    import Glibc
#endif

/// A writer killed with SIGKILL at any moment leaves nothing that can be served wrong.
///
/// The child is this very test binary, run again with `IMAGO_CACHES_CRASH_WRITER` naming the folder: this test then
/// writes entries in a loop instead of checking, until the parent kills it.
@Suite struct DiskDataCacheCrashTests {
    static let writerVariable = "IMAGO_CACHES_CRASH_WRITER"
    static let roundVariable = "IMAGO_CACHES_CRASH_ROUND"
    static let keys = (0..<30).map { CacheKey("https://example.com/image-\($0).jpg") }

    /// The entry of `key` at `generation`: up to 200 KB, so that a kill often lands in the middle of a write.
    static func entry(_ key: CacheKey, generation: Int) -> DataCacheEntry {
        Generated.entry(key, generation: generation, size: size(of: generation))
    }

    static func size(of generation: Int) -> Int { 1000 + (generation * 7919) % 200_000 }

    @Test func killedWritersLeaveNothingServableWrong() async throws {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment[Self.writerVariable] {
            await Self.writeForever(
                into: URL(fileURLWithPath: folder), round: Int(environment[Self.roundVariable] ?? "") ?? 0)
            return
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var hits = 0
        for round in 1...8 {
            let status = try await Self.runWriterAndKill(folder: folder, round: round)
            #expect(status == .uncaughtSignal, "the writer was killed, round \(round)")
            let reader = DiskDataCache(configuration: .init(directory: folder.url))
            for key in Self.keys {
                guard let entry = await reader.entry(for: key) else { continue }
                hits += 1
                let generation = Int(entry.metadata.etag?.dropFirst().dropLast() ?? "") ?? -1
                #expect(entry == Self.entry(key, generation: generation), "\(key), round \(round)")
            }
            #expect(await reader.stats().damaged == 0, "no entry file is ever partial")
        }
        #expect(hits > 0, "the writers stored entries before being killed")
        // Temporary files the killed writers left are never read; once old, a scan removes them.
        for name in folder.temporaryNames {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-7200)],
                ofItemAtPath: folder.url.appendingPathComponent(name).path)
        }
        _ = await DiskDataCache(configuration: .init(directory: folder.url)).stats()
        #expect(folder.temporaryNames.isEmpty)
    }

    /// Starts the writer, lets it write for a random moment once it has stored a few entries, then kills it.
    static func runWriterAndKill(folder: TemporaryFolder, round: Int) async throws -> Process.TerminationReason {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [
            "--testing-library", "swift-testing", "--filter", "killedWritersLeaveNothingServableWrong",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[writerVariable] = folder.path
        environment[roundVariable] = String(round)
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, folder.entriesModified(since: started) < 3, Date() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        try await Task.sleep(nanoseconds: UInt64.random(in: 5_000_000...150_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason
    }

    /// The child's work: four tasks storing entries for the same keys, forever.
    static func writeForever(into folder: URL, round: Int) async {
        // Orphaned (the parent test died before killing it) or forgotten, the writer stops by itself.
        let parent = getppid()
        let deadline = Date().addingTimeInterval(120)
        // Flushing each write widens the window between creating a temporary file and renaming it.
        let cache = DiskDataCache(configuration: .init(directory: folder, sizeLimit: 4 << 20, synchronizesWrites: true))
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var step = 0
                    while true {
                        let generation = round * 1_000_000 + task * 100_000 + step
                        let key = keys[(step * 7 + task) % keys.count]
                        try? await cache.store(entry(key, generation: generation), for: key)
                        step += 1
                        if getppid() != parent || Date() > deadline { exit(0) }
                    }
                }
            }
        }
    }
}
