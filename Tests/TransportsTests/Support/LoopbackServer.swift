import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 (Python 3, see `loopbackServerScript`), one per test suite.
///
/// The server exits when its stdin closes, so it cannot outlive the tests even if they crash.
final class LoopbackServer: @unchecked Sendable {
    /// The server of the suite being run (set by the `.loopbackServer` trait).
    @TaskLocal static var current: LoopbackServer?

    let port: Int
    private let process: Process
    private let stdin: Pipe

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// Starts a server and waits for the port it listens on.
    static func start() throws -> LoopbackServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", loopbackServerScript]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            process.terminate()
            throw LoopbackServerError(message: "the loopback server did not start (printed \(text.debugDescription))")
        }
        return LoopbackServer(port: port, process: process, stdin: stdin)
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery`.
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// What the server recorded under `id` (for example a disconnect), as JSON.
    func events(id: String) async throws -> [String: Any]? {
        let (data, _) = try await URLSession.shared.data(from: url("/events?id=\(id)"))
        return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
    }
}

struct LoopbackServerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Runs a suite with one loopback server, started before its first test and stopped after its last.
struct LoopbackServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try LoopbackServer.start()
        defer { server.stop() }
        try await LoopbackServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == LoopbackServerTrait {
    /// One loopback HTTP server for the whole suite: `LoopbackServer.current`.
    static var loopbackServer: Self { Self() }
}
