import Foundation
import ImagoTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 (Python 3, see `loopbackServerScript`), one per test suite.
///
/// The server exits when its stdin closes, so it cannot outlive the tests even if they crash.
final class LoopbackServer: Sendable {
    /// The server of the suite being run (set by the `.loopbackServer` trait).
    @TaskLocal static var current: LoopbackServer?

    private let server: PythonLoopbackServer

    private init(server: PythonLoopbackServer) { self.server = server }

    /// Starts a server and waits for the port it listens on.
    static func start() throws -> LoopbackServer {
        LoopbackServer(server: try PythonLoopbackServer(script: loopbackServerScript))
    }

    /// Stops the server and waits for it to exit.
    func stop() { server.stop() }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery`.
    func url(_ pathAndQuery: String) -> URL { server.url(pathAndQuery) }

    /// What the server recorded under `id` (for example a disconnect), as JSON.
    func events(id: String) async throws -> [String: Any]? {
        let (data, _) = try await URLSession.shared.data(from: url("/events?id=\(id)"))
        return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
    }
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
