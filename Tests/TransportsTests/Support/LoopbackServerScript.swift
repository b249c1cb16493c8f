/// The loopback test server, run with `python3 -c`: kept in Swift so the test target has no unhandled files.
///
/// Routes (query parameters in brackets): `/bytes` [n, type, etag, delay] answers 304 when If-None-Match matches;
/// `/trickle` [n, chunk, interval, id] sends slowly and records a disconnect under `id` (read it at `/events?id=`);
/// `/hang` never answers; `/cut` [n, send] declares n bytes, sends fewer and closes; `/chunked` [n, chunk] has no
/// length; `/huge` declares a terabyte; `/redirect` [n] redirects n times; `/loop` redirects to itself;
/// `/redirect-to` [location]; `/status` [code, retry_after]; `/echo` returns the request headers as JSON;
/// `/stream` [n, chunk, id] sends as fast as the client reads, recording under `id` how much it has sent so far;
/// `/peer` [delay] answers the client's port (which tells connections apart). Any request with `seen` records
/// `{"seen": true}` under that id.
let loopbackServerScript = #"""
    import json, os, socket, sys, threading, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlparse

    events = {}
    events_lock = threading.Lock()


    def record(key, value):
        with events_lock:
            events[key] = value


    PATTERN = bytes(range(251))


    def body_of(n):
        return (PATTERN * (n // 251 + 1))[:n]


    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            url = urlparse(self.path)
            self.query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            if "seen" in self.query:
                record(self.query["seen"], {"seen": True})
            route = getattr(self, "route_" + url.path.strip("/").replace("-", "_"), None)
            if route is None:
                return self.send_body(404, b"no such route")
            try:
                route()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def number(self, key, default):
            return float(self.query.get(key, default))

        def send_body(self, status, body, headers=None):
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def route_bytes(self):
            n = int(self.number("n", 1000))
            etag = self.query.get("etag")
            if etag and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            time.sleep(self.number("delay", 0))
            headers = {
                "Content-Type": self.query.get("type", "application/octet-stream"),
                "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT",
                "Cache-Control": "max-age=60",
                "Expires": "Thu, 22 Oct 2015 07:28:00 GMT",
            }
            if etag:
                headers["ETag"] = etag
            self.send_body(200, body_of(n), headers)

        def route_trickle(self):
            n, chunk = int(self.number("n", 1000)), int(self.number("chunk", 100))
            interval, key = self.number("interval", 0.05), self.query.get("id")
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            body, sent = body_of(n), 0
            try:
                while sent < n:
                    self.wfile.write(body[sent:sent + chunk])
                    self.wfile.flush()
                    sent += len(body[sent:sent + chunk])
                    time.sleep(interval)
            except (BrokenPipeError, ConnectionResetError):
                if key:
                    record(key, {"disconnected": True, "sent": sent})
                raise
            if key:
                record(key, {"disconnected": False, "sent": sent})

        def route_hang(self):
            # Holds the request open until the client goes away.
            self.connection.settimeout(30)
            try:
                self.rfile.read(1)
            except OSError:
                pass
            self.close_connection = True

        def route_cut(self):
            n, send = int(self.number("n", 1000)), int(self.number("send", 100))
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            self.wfile.write(body_of(n)[:send])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True

        def route_chunked(self):
            n, chunk = int(self.number("n", 1000)), int(self.number("chunk", 100))
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            body = body_of(n)
            for start in range(0, n, chunk):
                part = body[start:start + chunk]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")

        def route_huge(self):
            self.send_response(200)
            self.send_header("Content-Length", str(10**12))
            self.end_headers()
            self.wfile.write(body_of(1000))
            self.wfile.flush()
            self.route_hang()

        def route_redirect(self):
            n = int(self.number("n", 1))
            target = "/bytes?n=10" if n <= 1 else "/redirect?n=%d" % (n - 1)
            self.send_body(302, b"", {"Location": target})

        def route_loop(self):
            self.send_body(302, b"", {"Location": "/loop"})

        def route_redirect_to(self):
            self.send_body(302, b"", {"Location": self.query.get("location", "/bytes")})

        def route_status(self):
            headers = {}
            if "retry_after" in self.query:
                headers["Retry-After"] = self.query["retry_after"]
            self.send_body(int(self.number("code", 500)), b"error body", headers)

        def route_echo(self):
            body = json.dumps({k.lower(): v for k, v in self.headers.items()}).encode()
            self.send_body(200, body, {"Content-Type": "application/json"})

        def route_stream(self):
            n, chunk, key = int(self.number("n", 1000)), int(self.number("chunk", 65536)), self.query.get("id")
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            block, sent = body_of(chunk + 251), 0
            while sent < n:
                size = min(chunk, n - sent)
                offset = sent % 251
                self.wfile.write(block[offset:offset + size])
                sent += size
                if key:
                    record(key, {"sent": sent})

        def route_peer(self):
            time.sleep(self.number("delay", 0))
            self.send_body(200, str(self.client_address[1]).encode(), {"Content-Type": "text/plain"})

        def route_events(self):
            with events_lock:
                body = json.dumps(events.get(self.query.get("id"))).encode()
            self.send_body(200, body, {"Content-Type": "application/json"})


    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 128


    def exit_when_parent_goes():
        # The tests hold our stdin open; end of file means they are gone, even if they crashed.
        sys.stdin.read()
        os._exit(0)


    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    server.serve_forever()
    """#
