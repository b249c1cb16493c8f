import Foundation
import Imago
import Testing

@testable import ImagoServer

/// The Swift samples of Docs/Server.md, kept compiling and true.
@Suite struct DocsExampleTests {
    @Test func signingSample() {
        let signer = URLSigner(keys: ["my secret"])
        let rest = "/w=300,f=webp/plain/https%3A%2F%2Fimages.example.com%2Fphoto.jpg"
        let url = "http://127.0.0.1:8080" + signer.signedPath(rest)  // "/<signature>/w=300,…"
        #expect(url.hasSuffix(rest))
        let signature = url.dropFirst("http://127.0.0.1:8080/".count).prefix { $0 != "/" }
        #expect(signer.accepts(signature: signature, for: rest))
    }

    @Test func embeddingSample() async throws {
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.allowedSources = ["https://images.example.com/"]
        let server = try ImageServer(
            configuration: PluginRegistry.standardFactories().standardConfiguration(),
            settings: settings)
        print("listening on port", server.port)
        #expect(server.port > 0)
        await server.shutdown()
    }

    @Test func fileSourcesNamedInAllowedSourcesAreServed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ServerFixture.writeImages(to: folder)
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.allowedSources = [folder.absoluteString]
        var configuration = PluginRegistry.standardFactories().standardConfiguration()
        configuration.dataCache = nil
        let server = try ImageServer(configuration: configuration, settings: settings)
        defer { server.stop() }
        let port = server.port
        func get(_ name: String) async throws -> RawResponse {
            let source = ServerFixture.encode(folder.appendingPathComponent(name).absoluteString)
            return try await RawHTTP.offPool { try RawHTTP.get(port: port, target: "/unsafe/w=20/plain/" + source) }
        }
        #expect(try await get("photo.jpg").status == 200)
        #expect(try await get("missing.jpg").status == 404)
        let outside = ServerFixture.encode("file:///etc/hostname")
        let refused = try await RawHTTP.offPool { try RawHTTP.get(port: port, target: "/unsafe/-/plain/" + outside) }
        #expect(refused.status == 403)
    }
}
