import Foundation
import ImagoCore
import ImagoTestSupport
import ImagoTransports
import Testing

/// HTTPS through libcurl against a loopback TLS server whose certificate no system CA signed.
@Suite struct CurlTransportTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, made with the `openssl` tool in a fresh folder.
    private static func makeCertificate() throws -> (folder: URL, certificate: String, key: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl could not make a certificate")
        return (folder, certificate, key)
    }

    private static let script = """
        import ssl, sys
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", "6")
                self.end_headers()
                self.wfile.write(b"secure")
        class Server(ThreadingHTTPServer):
            daemon_threads = True
        server = Server(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    @Test func refusesACertificateTheSystemStoreDoesNotTrustAndAcceptsItFromTheCAFile() async throws {
        let (folder, certificate, key) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try PythonLoopbackServer(script: Self.script, arguments: [certificate, key])
        defer { server.stop() }
        let url = URL(string: "https://127.0.0.1:\(server.port)/a.png")!

        let refused = await TransportRecording.record(CurlTransport().fetch(TransportRequest(url: url)))
        #expect(refused.imagoError?.kind == .transportFailed(status: nil))
        #expect(refused.imagoError?.reason == "TLS certificate refused")
        #expect(refused.events.isEmpty)

        let trusting = CurlTransport(configuration: .init(caFile: certificate))
        let fetched = try await trusting.fetchAll(TransportRequest(url: url))
        #expect(fetched.data == Data("secure".utf8))
        #expect(fetched.metadata.statusCode == 200)
    }
}
