import Foundation
import ImagoTestSupport

/// A static file server on 127.0.0.1 (Python's `http.server`, threaded, with a deep listen backlog) serving a
/// temporary folder, for contract-testing the HTTP transport.
final class LocalHTTPServer: Sendable {
    let folder: URL
    private let server: PythonLoopbackServer

    private static let script = """
        import functools, http.server, sys
        class Server(http.server.ThreadingHTTPServer):
            request_queue_size = 128
            daemon_threads = True
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args): pass
        server = Server(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Starts the server; it serves `folder` until `stop()`.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try PythonLoopbackServer(script: Self.script, arguments: [folder.path])
    }

    /// Writes `data` into the served folder and returns its URL.
    func serve(_ data: Data) throws -> URL {
        let name = UUID().uuidString + ".bin"
        try data.write(to: folder.appendingPathComponent(name))
        return server.url("/\(name)")
    }

    /// A URL of this server where nothing is served.
    var missingURL: URL { server.url("/missing.png") }

    /// Stops the server and removes its folder.
    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
