import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback origin (Python 3) serving the files of a folder and counting the requests for each path
/// (`/count?path=/NAME`), so a test can tell how often the network was asked.
public final class CountingOrigin: Sendable {
    private let server: PythonLoopbackServer
    /// The folder served.
    public let folder: URL

    /// Serves `files` (name to bytes) from a new folder.
    public init(files: [String: Data]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-origin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        server = try PythonLoopbackServer(script: Self.script, arguments: [folder.path])
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The URL of `name`.
    public func url(_ name: String) -> URL { server.url("/\(name)") }

    /// How many requests `name` has had.
    public func count(_ name: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: server.url("/count?path=/\(name)"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    private static let script = #"""
        import os, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs
        root = sys.argv[1]
        counts = {}
        lock = threading.Lock()
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass
            def send(self, status, body, kind):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/count":
                    path = parse_qs(url.query).get("path", [""])[-1]
                    with lock:
                        n = counts.get(path, 0)
                    return self.send(200, str(n).encode(), "text/plain")
                with lock:
                    counts[url.path] = counts.get(url.path, 0) + 1
                file = os.path.join(root, os.path.basename(url.path))
                if not os.path.isfile(file):
                    return self.send(404, b"not found", "text/plain")
                with open(file, "rb") as f:
                    body = f.read()
                self.send(200, body, "image/png")
        class Server(ThreadingHTTPServer):
            request_queue_size = 128
            daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}

/// Pixels whose every value differs from its neighbours, so a wrong or partial image cannot match by chance.
public enum NoisePixels {
    /// `width` x `height` opaque RGBA pixels of seeded noise.
    public static func rgba(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            pixels += [
                UInt8(truncatingIfNeeded: state), UInt8(truncatingIfNeeded: state >> 8),
                UInt8(truncatingIfNeeded: state >> 16), 255,
            ]
        }
        return pixels
    }
}
