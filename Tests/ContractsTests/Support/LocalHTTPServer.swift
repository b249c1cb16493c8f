import Foundation
import ImagoTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A static file server on 127.0.0.1 (Python's `http.server`, threaded, with a deep listen backlog) serving a
/// temporary folder, for contract-testing the HTTP transport.
final class LocalHTTPServer: Sendable {
    let folder: URL
    private let server: PythonLoopbackServer

    /// Serves the folder's files; one over 1 MB is sent in 64 KB pieces every 10 ms (a slow link, so a transport
    /// that goes on reading after its consumer left can be seen), and `/sent?name=NAME` says how many bytes of
    /// NAME have been sent.
    private static let script = """
        import os, sys, threading, time
        root = sys.argv[1]
        sent = {}
        lock = threading.Lock()
        class Handler(LoopbackHandler):
            def do_GET(self):
                path = self.path.split("?")[0]
                if path == "/sent":
                    name = self.path.split("name=")[-1]
                    with lock: body = str(sent.get(name, 0)).encode()
                    return self.reply(200, body)
                file = os.path.join(root, os.path.basename(path))
                if not os.path.isfile(file):
                    return self.reply(404, b"not found")
                with open(file, "rb") as f: body = f.read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                slow = len(body) > (1 << 20)
                name = os.path.basename(path)
                try:
                    for offset in range(0, len(body), 65536):
                        piece = body[offset:offset + 65536]
                        self.wfile.write(piece)
                        with lock: sent[name] = sent.get(name, 0) + len(piece)
                        if slow: time.sleep(0.01)
                except (BrokenPipeError, ConnectionResetError):
                    pass
        serve(Handler)
        """

    /// Starts the server; it serves `folder` until `stop()`.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try PythonLoopbackServer(httpScript: Self.script, arguments: [folder.path])
    }

    /// Writes `data` into the served folder and returns its URL.
    func serve(_ data: Data) throws -> URL {
        let name = UUID().uuidString + ".bin"
        try data.write(to: folder.appendingPathComponent(name))
        return server.url("/\(name)")
    }

    /// Bytes of the file served at `url` sent so far.
    func bytesSent(for url: URL) async -> Int {
        guard let (data, _) = try? await URLSession.shared.data(from: server.url("/sent?name=\(url.lastPathComponent)"))
        else { return 0 }
        return Int(String(decoding: data, as: UTF8.self)) ?? 0
    }

    /// A URL of this server where nothing is served.
    var missingURL: URL { server.url("/missing.png") }

    /// Stops the server and removes its folder.
    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
