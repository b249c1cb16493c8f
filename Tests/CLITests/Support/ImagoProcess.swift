import Foundation
import Testing

/// What one run of the `imago` executable produced.
struct ProcessResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output's lines, without the empty last one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    /// Standard error's lines.
    var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// Standard output's lines parsed as JSON objects.
    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let dictionary = object as? [String: Any] else {
                throw TestFailure("not a JSON object: \(line)")
            }
            return dictionary
        }
    }
}

/// A failure with a message, for helpers that must stop a test.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs the built `imago` executable (`.build/<config>/imago`, next to the test bundle) as a child process.
enum ImagoTool {
    /// The executable, or a failure saying how to build it: tests never skip.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let runner = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("imago"))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("imago"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/imago"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw TestFailure(
            "the imago executable is not built (looked at \(candidates.map(\.path))): "
                + "run `swift build --build-tests` (or `swift build --product imago`) before `swift test`")
    }

    /// The package's root folder, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `imago arguments…` with `environment` added to (or, for `nil` values, removed from) the current one.
    ///
    /// The wait for the child runs on a thread of its own: a test waiting for `imago` must not hold one of the
    /// cooperative pool's few threads, which every other test (and a loader's glue) needs meanwhile.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String?] = [:], interruptAfter: Double? = nil,
        timeout: Double = 120
    ) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try runBlocking(
                            arguments, environment: environment, interruptAfter: interruptAfter, timeout: timeout)
                    })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], environment: [String: String?], interruptAfter: Double?, timeout: Double
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Output goes to files, so a full pipe can never block the child.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if let interruptAfter {
            usleep(UInt32(interruptAfter * 1_000_000))
            process.interrupt()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw TestFailure("imago \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
