import Foundation
import Testing

@testable import ImagoCaches

#if canImport(Glibc)
    import Glibc
#endif

/// A writer killed with SIGKILL at any moment leaves nothing that can be served wrong.
///
/// The child is this very test binary, run again with `IMAGO_CACHES_CRASH_WRITER` naming the folder: this test then
/// writes entries in a loop instead of checking, until the parent kills it. The child stops by itself only when its
/// standard input (a pipe the parent holds) closes: the parent is gone. It once also stopped when `Date()` passed
/// 120 s after its start: that wall-clock deadline was its only way to end by itself while the parent lived, and a
/// step of the clock (or a parent stalled that long) made it exit before the kill (CI saw `.exit`, not a signal).
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
            let writer = try await Self.runWriterAndKill(folder: folder, round: round)
            #expect(
                writer.reason == .uncaughtSignal && writer.status == SIGKILL,
                """
                the writer was killed, round \(round): it ended with \(writer.reason) \(writer.status) after \
                \(writer.seconds) s; its stderr:
                \(writer.stderr)
                """)
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

    /// How a writer ended: the reason and status (the signal, or the exit status), its lifetime and its stderr.
    struct WriterEnd {
        var reason: Process.TerminationReason
        var status: Int32
        var seconds: Double
        var stderr: String
    }

    /// Starts the writer, lets it write for a random moment once it has stored a few entries, then kills it.
    static func runWriterAndKill(folder: TemporaryFolder, round: Int) async throws -> WriterEnd {
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
        // The child's stderr is kept (outside the cache folder), so a writer that ends by itself says why.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("imago-crash-writer-\(UUID()).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let stderr = try FileHandle(forWritingTo: log)
        defer { try? stderr.close() }
        // Held open until the kill: the child's only way to stop by itself is this pipe closing (the parent died).
        let lifeline = Pipe()
        process.standardInput = lifeline
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        // Monotonic: a step of the wall clock neither cuts nor stretches the wait.
        let deadline = start + .seconds(60)
        while process.isRunning, folder.entriesModified(since: started) < 3, clock.now < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        try await Task.sleep(nanoseconds: UInt64.random(in: 5_000_000...150_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? lifeline.fileHandleForWriting.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lifetime = start.duration(to: clock.now).components
        return WriterEnd(
            reason: process.terminationReason, status: process.terminationStatus,
            seconds: Double(lifetime.seconds) + Double(lifetime.attoseconds) * 1e-18,
            stderr: output.isEmpty ? "(empty)" : output)
    }

    /// In the child: stops the process once standard input reaches its end (the parent, holding the pipe, is gone),
    /// saying so on stderr.
    static func stopWhenOrphaned() {
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            FileHandle.standardError.write(Data("crash writer: standard input closed (parent gone), stopping\n".utf8))
            exit(3)
        }
    }

    /// The child's work: four tasks storing entries for the same keys, forever.
    static func writeForever(into folder: URL, round: Int) async {
        stopWhenOrphaned()
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
                    }
                }
            }
        }
    }
}
