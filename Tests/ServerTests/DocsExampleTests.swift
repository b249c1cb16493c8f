import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
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
            await server.shutdown()
            #expect(server.port > 0)
        }

        @Test func fileSourcesNamedInAllowedSourcesAreServed() async throws {
            let fixture = try ServerFixture { settings, _, folder in settings.allowedSources = [folder.absoluteString] }
            func get(_ source: String) async throws -> RawResponse {
                try await fixture.get("/unsafe/w=20/plain/" + ServerFixture.encode(source))
            }
            #expect(try await get(fixture.folder.appendingPathComponent("photo.jpg").absoluteString).status == 200)
            #expect(try await get(fixture.folder.appendingPathComponent("missing.jpg").absoluteString).status == 404)
            #expect(try await get("file:///etc/hostname").status == 403)
        }
    }
}
