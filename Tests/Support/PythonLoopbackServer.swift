import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test HTTP server: a Python 3 script run as a child process, listening on 127.0.0.1 only.
///
/// The caller's script must bind 127.0.0.1 and print its port on the first stdout line. The server exits when its
/// stdin closes (a watcher is run ahead of the script), so it cannot outlive the test runner even if that crashes.
public final class PythonLoopbackServer: @unchecked Sendable {  // `Process` is not Sendable; it is only stopped once.
    /// The port the server listens on.
    public let port: Int
    private let process: Process
    private let stdin: Pipe
    private let lock = NSLock()
    private var stopped = false

    /// Runs before the caller's script: exits when stdin closes, then runs the script (taken from argv[1]) with
    /// the remaining arguments, as if it had been given to `python3 -c` itself.
    private static let launcher = """
        import os, sys, threading
        def _exit_when_stdin_closes():
            while os.read(0, 65536):
                pass
            os._exit(0)
        threading.Thread(target=_exit_when_stdin_closes, daemon=True).start()
        _script = sys.argv.pop(1)
        exec(compile(_script, "<loopback-server>", "exec"), {"__name__": "__main__"})
        """

    /// Starts `script` with `arguments` (its `sys.argv[1...]`) and waits for the port it prints; `interpreter` is
    /// the Python to run it with (a virtual environment's, for a script that needs its packages).
    public init(script: String, arguments: [String] = [], interpreter: String = "python3") throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [interpreter, "-u", "-c", Self.launcher, script] + arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Byte by byte up to the first newline, so nothing after the port is consumed.
        var line = Data()
        while let byte = try? stdout.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
            byte != Data([UInt8(ascii: "\n")])
        {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            Self.killAndReap(process)
            try? stdin.fileHandleForWriting.close()
            throw PythonLoopbackServerError(
                message: "the loopback server did not start (printed \(text.debugDescription))")
        }
        self.port = port
    }

    /// Starts an HTTP server script, run after `httpPrelude`, with `arguments` (its `sys.argv[1...]`).
    public convenience init(httpScript script: String, arguments: [String] = []) throws {
        try self.init(script: Self.httpPrelude + script, arguments: arguments)
    }

    /// What the HTTP test servers share, defined ahead of their script: `LoopbackHandler` (HTTP/1.1, no request
    /// log, `reply(status, body, headers)` with a `Content-Length`) and `serve(handler)`, which binds 127.0.0.1 on a
    /// free port with a deep listen backlog (128 unless `backlog` says more; http.server's 5 refuses connections under
    /// load), prints the port and serves on threads.
    public static let httpPrelude = #"""
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


        class LoopbackHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body, headers=None):
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)


        class LoopbackHTTPServer(ThreadingHTTPServer):
            request_queue_size = 128
            daemon_threads = True


        def serve(handler, backlog=LoopbackHTTPServer.request_queue_size):
            class Server(LoopbackHTTPServer):
                request_queue_size = backlog

            server = Server(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()


        """#

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery` (which starts with `/`).
    public func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")! }

    /// Stops the server and waits for it to exit (so no zombie is left); later calls do nothing.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        try? stdin.fileHandleForWriting.close()
        Self.killAndReap(process)
    }

    /// SIGKILL, not `terminate()`: the child inherits the test runner's blocked signals, SIGTERM included, and
    /// SIGKILL cannot be blocked, so the wait always ends.
    private static func killAndReap(_ process: Process) {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The server did not start.
public struct PythonLoopbackServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    public var description: String { message }
}
