import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// `serve.watermark` and `serve.fallbackImage` are loaded and checked when the server starts, and kept: a bad
    /// one stops the start naming its key (it made every `wm=` request a 500 before, or cost each the full timeout).
    @Suite struct TrustedSourcesTests {
        static func start(_ adjust: (inout ServeSettings, OriginServer, URL) -> Void) throws -> (
            OriginServer, URL, () throws -> ImageServer
        ) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-trusted-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try ServerFixture.writeImages(to: folder)
            try Data("not an image".utf8).write(to: folder.appendingPathComponent("note.txt"))
            let origin = try OriginServer(serving: folder)
            var settings = ServeSettings()
            settings.listen = "127.0.0.1:0"
            adjust(&settings, origin, folder)
            var configuration = PluginRegistry.standardFactories().standardConfiguration()
            configuration.dataCache = nil
            let frozen = settings
            return (origin, folder, { try ImageServer(configuration: configuration, settings: frozen) })
        }

        @Test func aWatermarkThatIsNoImageStopsTheStartNamingItsKey() throws {
            let (origin, folder, start) = try Self.start { settings, _, folder in
                settings.watermark = folder.appendingPathComponent("note.txt").path
            }
            defer { origin.stop() }
            let error = #expect(throws: ImagoError.self) { try start() }
            #expect(error?.kind == .invalidConfiguration)
            #expect(error?.reason.hasPrefix("serve.watermark: \"\(folder.path)/note.txt\" cannot be loaded") == true)
        }

        @Test func aFallbackThatHangsStopsTheStartAfterTheSourceTimeout() throws {
            let (origin, _, start) = try Self.start { settings, origin, _ in
                settings.sourceTimeout = 1
                settings.fallbackImage = origin.url("hang")
            }
            defer { origin.stop() }
            let error = #expect(throws: ImagoError.self) { try start() }
            #expect(error?.reason.hasPrefix("serve.fallbackImage:") == true, "\(error?.reason ?? "")")
            #expect(error?.reason.contains("timed out") == true, "\(error?.reason ?? "")")
        }

        @Test func theOperatorsSourcesAreExemptFromThePrivateAddressRule() throws {
            // Loopback sources are refused to URLs (allowPrivateAddresses is false), not to the operator.
            let (origin, _, start) = try Self.start { settings, origin, _ in
                settings.watermark = origin.url("img/wm.png")
                settings.fallbackImage = origin.url("img/fallback.png")
            }
            defer { origin.stop() }
            let server = try start()
            defer { server.stop() }
            #expect(server.trusted.watermark != nil && server.trusted.fallback != nil)
        }
    }
}
