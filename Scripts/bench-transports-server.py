# The loopback server of Scripts/bench-transports.sh: slow, silent and fast answers for the HTTP transports.
import os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else the head and the body wait on delayed ACKs: 40 ms a request

    def log_message(self, *args):
        pass

    def head(self, length):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.flush()

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            if url.path == "/silent":  # nothing at all for a while, then the answer
                time.sleep(float(query.get("seconds", 4)))
                self.head(10)
                self.wfile.write(b"0123456789")
            elif url.path == "/head-then-silent":  # the head, nothing for a while, then the body
                self.head(10)
                time.sleep(float(query.get("seconds", 4)))
                self.wfile.write(b"0123456789")
            elif url.path == "/trickle":  # n bytes at `rate` bytes a second, a write every `interval` seconds
                n, rate = int(query.get("n", 1 << 20)), int(query.get("rate", 102400))
                interval = float(query.get("interval", 0.1))
                self.head(n)
                step, sent = max(1, int(rate * interval)), 0
                while sent < n:
                    part = min(step, n - sent)
                    self.wfile.write(b"x" * part)
                    self.wfile.flush()
                    sent += part
                    time.sleep(interval)
            elif url.path.startswith("/img/"):
                n = int(query.get("n", 10240))
                self.head(n)
                self.wfile.write(os.urandom(n))
            else:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()  # exits when the script that started it goes away
