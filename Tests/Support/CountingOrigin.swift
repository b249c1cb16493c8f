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
        server = try PythonLoopbackServer(httpScript: Self.script, arguments: [folder.path])
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
        from urllib.parse import urlparse, parse_qs
        root = sys.argv[1]
        counts = {}
        lock = threading.Lock()
        class Handler(LoopbackHandler):
            def send(self, status, body, kind):
                self.reply(status, body, {"Content-Type": kind})
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
        serve(Handler)
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
