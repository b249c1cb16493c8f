import Foundation

/// A real HTTP server on 127.0.0.1 (Python 3), serving a folder: files are 200, missing ones 404,
/// `/slow/NAME` answers NAME after 3 seconds, `/fail/…` is 503, `/count` reports how many requests it served.
final class LoopbackServer {
    let process = Process()
    let port: Int

    init(serving folder: URL) throws {
        let script = """
            import http.server, os, signal, sys, time, threading
            # The test process may block SIGTERM, and children inherit the mask: unblock it so stop() works.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
            root = sys.argv[1]
            lock = threading.Lock()
            served = [0]
            class Handler(http.server.BaseHTTPRequestHandler):
                def log_message(self, *args): pass
                def do_GET(self):
                    with lock: served[0] += 1
                    path = self.path.split('?')[0]
                    if path == '/count':
                        return self.send(200, str(served[0]).encode(), 'text/plain')
                    if path.startswith('/fail/'):
                        return self.send(503, b'try later', 'text/plain')
                    if path.startswith('/slow/'):
                        time.sleep(3)
                        path = path[5:]
                    file = os.path.join(root, os.path.basename(path))
                    if not os.path.isfile(file):
                        return self.send(404, b'not found', 'text/plain')
                    with open(file, 'rb') as f: body = f.read()
                    self.send(200, body, 'application/octet-stream')
                def send(self, status, body, kind):
                    try:
                        self.send_response(status)
                        self.send_header('Content-Type', kind)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    except (BrokenPipeError, ConnectionResetError):
                        pass
            class Server(http.server.ThreadingHTTPServer):
                request_queue_size = 128
                daemon_threads = True
            server = Server(('127.0.0.1', 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.readLine()
        guard let port = line.flatMap({ Int($0) }) else {
            process.terminate()
            throw TestFailure("the loopback server did not start")
        }
        self.port = port
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    deinit {
        // SIGKILL: it cannot be blocked or ignored, so the wait below always ends.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

extension FileHandle {
    /// Reads up to the first newline (for the server's port), or `nil` at end of file.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
