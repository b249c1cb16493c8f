import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A static file server on 127.0.0.1 (Python's `http.server`, threaded, with a deep listen backlog) serving a
/// temporary folder, for contract-testing the HTTP transport.
final class LocalHTTPServer: @unchecked Sendable {  // `Process` is not Sendable; it is only started and stopped.
    let folder: URL
    let port: Int
    private let process: Process

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
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is the port the server listens on.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    /// Writes `data` into the served folder and returns its URL.
    func serve(_ data: Data) throws -> URL {
        let name = UUID().uuidString + ".bin"
        try data.write(to: folder.appendingPathComponent(name))
        return URL(string: "http://127.0.0.1:\(port)/\(name)")!
    }

    /// A URL of this server where nothing is served.
    var missingURL: URL { URL(string: "http://127.0.0.1:\(port)/missing.png")! }

    /// Stops the server and removes its folder.
    func stop() {
        // SIGKILL: the child inherits the test runner's blocked signals, SIGTERM included.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
