import Foundation
import Imago
import ImagoTestSupport
import Synchronization
import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerIntegrationTests {
    /// Serve's limits reach a transport it has never heard of: a user's transport registered in the server's
    /// configuration gets the byte cap, the one deadline over the whole fetch, and the source policy, and the loader
    /// enforces them whether the transport cooperates or not.
    @Suite struct ImageServerTransportLimitsTests {
        /// `probe://host/NAME`: `endless` streams forever, `hang` never answers and ignores cancellation,
        /// `elsewhere` claims a redirect to an address outside the allow-list, `image` a PNG, after recording what
        /// the request carried.
        struct ProbeTransport: ImageTransport {
            let seen: Seen
            var schemes: Set<String> { ["probe"] }

            func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
                let name = request.url.lastPathComponent
                let policy = request.limits.policy
                seen.lines.withLock {
                    $0.append(
                        "\(name) deadline=\(request.limits.deadline != nil) maxBytes=\(request.limits.maxBytes)"
                            + " loopback=\(policy?.allowsConnection(to: "127.0.0.1") ?? true)"
                            + " public=\(policy?.allowsConnection(to: "93.184.216.34") ?? true)")
                }
                return AsyncThrowingStream { continuation in
                    let task = Task.detached {
                        switch name {
                        case "endless":
                            continuation.yield(.response(TransportMetadata(statusCode: 200)))
                            while !Task.isCancelled {
                                continuation.yield(.bytes(Data(count: 64 * 1024)))
                                try? await Task.sleep(nanoseconds: 1_000_000)
                            }
                        case "hang":
                            // Ignores cancellation on purpose: the loader's deadline must not depend on it.
                            usleep(4_000_000)
                            continuation.finish()
                        case "elsewhere":
                            continuation.yield(
                                .response(
                                    TransportMetadata(statusCode: 200, finalURL: URL(string: "probe://other/image"))))
                            continuation.yield(.bytes(ProbeTransport.png))
                            continuation.finish()
                        default:
                            continuation.yield(.response(TransportMetadata(statusCode: 200)))
                            continuation.yield(.bytes(ProbeTransport.png))
                            continuation.finish()
                        }
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }

            static let png: Data = {
                let raster = try! Raster(width: 8, height: 8, fill: RGBA(10, 20, 30))
                return try! PluginRegistry.standard().encoder(for: .png)!.encode(
                    DecodedImage(raster: raster, format: .png), options: .default)
            }()
        }

        final class Seen: Sendable {
            let lines = Mutex<[String]>([])
        }

        @Test func aUsersTransportGetsTheByteCapTheDeadlineAndThePolicy() async throws {
            let seen = Seen()
            var factoriesBuilder = PluginRegistry.Builder(.standardFactories())
            factoriesBuilder.add(
                PluginFactory<any ImageTransport>(name: "probe") { _ in ProbeTransport(seen: seen) })
            let factories = factoriesBuilder.build()
            var configuration = factories.standardConfiguration()
            configuration.transports.append(PluginSpec("probe"))
            configuration.dataCache = nil
            var settings = ServeSettings()
            settings.listen = "127.0.0.1:0"
            settings.allowedSources = ["probe://host/"]
            settings.maxSourceBytes = 1_000_000
            settings.sourceTimeout = 1
            let server = try ImageServer(configuration: configuration, settings: settings, factories: factories)
            let port = server.port
            func get(_ name: String) async throws -> RawResponse {
                try await offPool {
                    try RawHTTP.get(port: port, target: "/unsafe/w=4/plain/probe%3A%2F%2Fhost%2F\(name)")
                }
            }
            let image = try await get("image")
            #expect(image.status == 200, "\(image.text)")
            let endless = try await get("endless")
            #expect(endless.status == 413, "\(endless.text)")
            // The transport ignores cancellation and would end after 4 s with nothing (a 415): the 504 is the
            // loader's deadline (checked by status, not by the clock, so a starved test process cannot fail it).
            let hang = try await get("hang")
            #expect(hang.status == 504, "\(hang.text)")
            let elsewhere = try await get("elsewhere")
            #expect(elsewhere.status == 403, "\(elsewhere.text)")
            // Outside the allow-list: refused before the transport is asked.
            let outside = try await offPool {
                try RawHTTP.get(port: port, target: "/unsafe/w=4/plain/probe%3A%2F%2Fother%2Fimage")
            }
            #expect(outside.status == 403)
            let lines = seen.lines.withLock { $0 }
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.first == "image deadline=true maxBytes=1000000 loopback=false public=true", "\(lines)")
            await server.shutdown()
        }

        @Test func sourceTimeoutBoundsTheWholeFetchRetriesIncluded() async throws {
            let fixture = try ServerFixture(retries: 5) { settings, _, _ in settings.sourceTimeout = 1 }
            let (port, path) = (fixture.port, fixture.path("w=20", origin: "hang"))
            // Timed on the thread that waits for the answer, so a busy test process does not add to it.
            let (response, elapsed) = try await offPool {
                let start = Date()
                let response = try RawHTTP.get(port: port, target: path)
                return (response, Date().timeIntervalSince(start))
            }
            #expect(response.status == 504, "\(response.text)")
            // Per attempt, five attempts would take over 5 s.
            #expect(elapsed < 3.5, "504 after \(elapsed) s with sourceTimeout 1 and 5 attempts allowed")
        }
    }
}

/// What serve's loader keeps in memory: no processed pixels, a pixel budget sized for a server.
@Suite struct ImageServerLoaderMemoryTests {
    @Test func serveKeepsNoPixelsAndHasAServersPixelBudget() throws {
        let configuration = PluginRegistry.standardFactories().standardConfiguration()
        #expect(configuration.imageCache != nil, "the configuration names a memory cache")
        let loader = try ImageServer.loader(configuration: configuration, settings: ServeSettings())
        #expect(loader.imageCache == nil, "serve does not keep processed pixels")
        #expect(loader.settings.pixelMemoryBudget == ImageServer.defaultPixelMemoryBudget)
        var chosen = configuration
        chosen.loader.pixelMemoryBudget = 64 << 20
        let configured = try ImageServer.loader(configuration: chosen, settings: ServeSettings())
        #expect(configured.settings.pixelMemoryBudget == 64 << 20, "an operator's budget is kept")
    }
}
