import Foundation
import ImagoTestSupport

/// A real HTTP server on 127.0.0.1 (Python 3), serving a folder: files are 200, missing ones 404,
/// `/slow/NAME` answers NAME after 3 seconds, `/fail/…` is 503, `/auth/NAME` and `/cookie/NAME` answer 401
/// without an `Authorization` (or `Cookie`) header, and `/count` reports how many requests it served.
/// It is stopped (SIGKILL, then reaped) when released.
final class LoopbackServer {
    private let server: PythonLoopbackServer

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
                    for prefix, header in (('/auth/', 'Authorization'), ('/cookie/', 'Cookie')):
                        if path.startswith(prefix):
                            if not self.headers.get(header):
                                return self.send(401, b'who are you?', 'text/plain')
                            path = path[len(prefix) - 1:]
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
        server = try PythonLoopbackServer(script: script, arguments: [folder.path])
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> String { "\(server.baseURL.absoluteString)/\(path)" }
}
