import Foundation

/// A loopback HTTP server (Python 3) that sends the files of one folder slowly and records when it sent each
/// byte, for tests of progressive previews.
///
/// `/NAME?rate=R&chunk=C&id=I` sends NAME in chunks of C bytes (default 4096), R bytes a second (0: all at
/// once), recording under I when each chunk left; `/log?id=I` answers the record as JSON lines
/// `[bytes sent so far, Unix time]`. With `hold=H1,H2,…` the server, once it has sent H1 bytes or more, slows to a
/// drip (256 bytes every 0.25 s) until `/release?id=I` (or 20 s), then goes on at R to H2, and so on (a release
/// that comes early counts for the next hold): a test can look at what happened while the server is known to
/// have sent little more than H, whatever the machine's load.
/// Exits when its stdin closes; stopped with SIGKILL.
public final class TricklingServer: Sendable {
    private let server: PythonLoopbackServer

    /// Serves `folder` on 127.0.0.1.
    public init(folder: URL) throws {
        server = try PythonLoopbackServer(httpScript: Self.script, arguments: [folder.path])
    }

    /// Stops the server.
    public func stop() { server.stop() }

    /// The URL of `name` sent at `rate` bytes a second in `chunk`-byte pieces, recorded under `id`.
    public func url(_ name: String, rate: Int, chunk: Int = 4096, id: String) -> URL {
        server.url("/\(name)?rate=\(rate)&chunk=\(chunk)&id=\(id)")
    }

    /// Like `url(_:rate:chunk:id:)`, but the server drips after each of `holds` bytes until `release(id:)`.
    public func url(_ name: String, rate: Int, chunk: Int = 4096, holds: [Int], id: String) -> URL {
        let holds = holds.map(String.init).joined(separator: ",")
        return server.url("/\(name)?rate=\(rate)&chunk=\(chunk)&hold=\(holds)&id=\(id)")
    }

    /// Lets the transfer under `id` go on past its current hold (or its next one, if it is not held yet).
    public func release(id: String) async throws {
        _ = try await Self.fetch(server.url("/release?id=\(id)"))
    }

    /// `sendLog(id:)` without blocking the caller's thread (for tests on the cooperative pool).
    public func sendLog(id: String) async throws -> [(bytes: Int, time: Date)] {
        Self.parseLog(try await Self.fetch(server.url("/log?id=\(id)")))
    }

    /// Reads `url` on a thread of its own: blocking I/O stays off the cooperative pool.
    private static func fetch(_ url: URL) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result(catching: { try Data(contentsOf: url) })) }
        }
    }

    private static func parseLog(_ data: Data) -> [(bytes: Int, time: Date)] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let bytes = Int(parts[0]), let time = Double(parts[1]) else { return nil }
            return (bytes, Date(timeIntervalSince1970: time))
        }
    }

    /// When each chunk sent under `id` left: (bytes sent so far, time).
    public func sendLog(id: String) throws -> [(bytes: Int, time: Date)] {
        Self.parseLog(try Data(contentsOf: server.url("/log?id=\(id)")))
    }

    /// Bytes the server had sent under `id` by `time`.
    public func bytesSent(id: String, by time: Date) throws -> Int {
        try sendLog(id: id).last { $0.time <= time }?.bytes ?? 0
    }

    static let script = #"""
        import os, sys, threading, time
        from urllib.parse import urlparse, parse_qs

        root = sys.argv[1]
        logs = {}
        releases = {}
        lock = threading.Lock()


        def release_event(key):
            with lock:
                return releases.setdefault(key, threading.Semaphore(0))


        class Handler(LoopbackHandler):
            def do_GET(self):
                url = urlparse(self.path)
                query = {k: v[-1] for k, v in parse_qs(url.query).items()}
                if url.path == "/log":
                    with lock:
                        entries = list(logs.get(query.get("id", ""), []))
                    body = "".join("%d %.6f\n" % entry for entry in entries).encode()
                    return self.reply(200, body)
                if url.path == "/release":
                    release_event(query.get("id", "")).release()
                    return self.reply(200, b"released")
                path = os.path.join(root, os.path.basename(url.path))
                if not os.path.isfile(path):
                    return self.reply(404, b"not found")
                with open(path, "rb") as f:
                    body = f.read()
                rate = int(query.get("rate", "0"))
                chunk = max(1, int(query.get("chunk", "4096")))
                holds = [int(h) for h in query.get("hold", "").split(",") if h]
                log = []
                with lock:
                    logs[query.get("id", url.path)] = log
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if rate <= 0:
                        self.wfile.write(body)
                        self.wfile.flush()
                        with lock:
                            log.append((len(body), time.time()))
                        return
                    start = time.monotonic()
                    sent = 0
                    while sent < len(body):
                        piece = body[sent:sent + chunk]
                        self.wfile.write(piece)
                        self.wfile.flush()
                        sent += len(piece)
                        with lock:
                            log.append((sent, time.time()))
                        if holds and holds[0] <= sent:
                            holds.pop(0)
                            sent = self.drip(body, sent, log, release_event(query.get("id", url.path)))
                            start = time.monotonic() - sent / rate
                        delay = start + sent / rate - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def drip(self, body, sent, log, released):
                # Held: 256 bytes every 0.25 s (new chunks keep the client's decoder going, a starved client
                # included) until released, for at most 20 s.
                deadline = time.monotonic() + 20
                while sent < len(body) and not released.acquire(timeout=0.25) and time.monotonic() < deadline:
                    piece = body[sent:sent + 256]
                    self.wfile.write(piece)
                    self.wfile.flush()
                    sent += len(piece)
                    with lock:
                        log.append((sent, time.time()))
                return sent


        serve(Handler)
        """#
}
