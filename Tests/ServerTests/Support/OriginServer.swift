import Foundation
import ImagoTestSupport

/// The source origin of the server tests: a Python HTTP server on 127.0.0.1 serving a folder.
///
/// `/img/NAME` the file; `/lm/NAME` the file with `Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT`; `/slow/MS/NAME` the file after MS milliseconds; `/status/CODE` an empty CODE answer;
/// `/text` a text body; `/cut/NAME` half the file under its full `Content-Length`; `/hang` nothing for 30 s;
/// `/redirect?to=URL` a 302 to URL; `/count` how many requests other than `/count` it served.
final class OriginServer: Sendable {
    private let server: PythonLoopbackServer

    init(serving folder: URL) throws {
        let script = """
            import os, signal, sys, time, threading, urllib.parse
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
            root = sys.argv[1]
            lock = threading.Lock()
            served = [0]
            class Handler(LoopbackHandler):
                def do_GET(self):
                    url = urllib.parse.urlparse(self.path)
                    parts = url.path.split('/')
                    if url.path == '/count':
                        return self.send(200, str(served[0]).encode(), 'text/plain')
                    with lock: served[0] += 1
                    if parts[1] == 'img':
                        return self.file(parts[2])
                    if parts[1] == 'lm':
                        return self.reply(200, self.read(parts[2]), {'Content-Type': 'application/octet-stream',
                            'Last-Modified': 'Wed, 21 Oct 2015 07:28:00 GMT'})
                    if parts[1] == 'slow':
                        time.sleep(int(parts[2]) / 1000)
                        return self.file(parts[3])
                    if parts[1] == 'status':
                        return self.send(int(parts[2]), b'', 'text/plain')
                    if parts[1] == 'text':
                        return self.send(200, b'hello, not an image', 'text/plain')
                    if parts[1] == 'cut':
                        body = self.read(parts[2])
                        self.send_response(200)
                        self.send_header('Content-Type', 'image/png')
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body[:len(body) // 2])
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    if parts[1] == 'hang':
                        time.sleep(30)
                        return self.send(200, b'', 'text/plain')
                    if parts[1] == 'redirect':
                        target = urllib.parse.parse_qs(url.query)['to'][0]
                        self.send_response(302)
                        self.send_header('Location', target)
                        self.send_header('Content-Length', '0')
                        self.end_headers()
                        return
                    self.send(404, b'not found', 'text/plain')
                def read(self, name):
                    with open(os.path.join(root, os.path.basename(name)), 'rb') as f: return f.read()
                def file(self, name):
                    path = os.path.join(root, os.path.basename(name))
                    if not os.path.isfile(path):
                        return self.send(404, b'not found', 'text/plain')
                    self.send(200, self.read(name), 'application/octet-stream')
                def send(self, status, body, kind):
                    try:
                        self.reply(status, body, {'Content-Type': kind})
                    except (BrokenPipeError, ConnectionResetError):
                        pass
            serve(Handler, backlog=256)
            """
        server = try PythonLoopbackServer(httpScript: script, arguments: [folder.path])
    }

    var port: Int { server.port }

    /// `http://127.0.0.1:PORT/` — the prefix to put in `allowedSources`.
    var prefix: String { "http://127.0.0.1:\(port)/" }

    /// The URL of `path` (no leading slash).
    func url(_ path: String) -> String { prefix + path }

    /// Requests served so far (other than `/count`).
    func count() async throws -> Int {
        let port = self.port
        let response = try await offPool { try RawHTTP.get(port: port, target: "/count") }
        return Int(String(decoding: response.body, as: UTF8.self)) ?? -1
    }

    func stop() { server.stop() }
}
