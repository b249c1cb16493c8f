import Foundation
import ImagoTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loopback HTTP server (Python 3) serving the files of one folder, for the loader's end-to-end tests.
///
/// `/img/NAME` serves NAME from the folder; query `etag` sets an ETag (and answers 304 to a matching
/// If-None-Match), `cc` a Cache-Control, `fail` answers 503 (Retry-After: 0) to the first `fail` requests of its
/// `key`. `/count?key=K` says how many requests `key` (default: the path) has seen. The server exits when its
/// stdin closes, so it cannot outlive the tests.
final class ImageFolderServer: Sendable {
    private let server: PythonLoopbackServer

    init(folder: URL) throws {
        server = try PythonLoopbackServer(httpScript: Self.script, arguments: [folder.path])
    }

    func stop() { server.stop() }

    func url(_ pathAndQuery: String) -> URL { server.url(pathAndQuery) }

    /// Requests the server has seen for `key`.
    func count(_ key: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url("/count?key=\(key)"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    static let script = #"""
        import os, sys, threading
        from urllib.parse import urlparse, parse_qs

        root = sys.argv[1]
        counts = {}
        lock = threading.Lock()


        class Handler(LoopbackHandler):
            def do_GET(self):
                url = urlparse(self.path)
                query = {k: v[-1] for k, v in parse_qs(url.query).items()}
                if url.path == "/count":
                    with lock:
                        n = counts.get(query.get("key", ""), 0)
                    return self.reply(200, str(n).encode(), {})
                key = query.get("key", url.path)
                with lock:
                    counts[key] = counts.get(key, 0) + 1
                    n = counts[key]
                if n <= int(query.get("fail", "0")):
                    return self.reply(503, b"busy", {"Retry-After": "0"})
                etag = query.get("etag")
                if etag and self.headers.get("If-None-Match") == etag:
                    return self.reply(304, b"", {"ETag": etag, "Cache-Control": query.get("cc", "no-cache")})
                path = os.path.join(root, os.path.basename(url.path))
                if not os.path.isfile(path):
                    return self.reply(404, b"not found", {})
                with open(path, "rb") as f:
                    body = f.read()
                headers = {"Content-Type": "application/octet-stream"}
                if etag:
                    headers["ETag"] = etag
                if "cc" in query:
                    headers["Cache-Control"] = query["cc"]
                self.reply(200, body, headers)


        serve(Handler)
        """#
}
