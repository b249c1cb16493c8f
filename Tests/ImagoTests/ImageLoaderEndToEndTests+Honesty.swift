import Foundation
import Imago
import ImagoTestSupport
import Synchronization
import Testing

/// What the real transports let the disk cache keep, and which real failures are retried.
extension ImageLoaderEndToEndTests {
    @Test func onlyHTTPAnswersAreKeptOnDisk() async throws {
        let loader = makeLoader(cacheFolder: "only-http")
        let cache = try #require(loader.dataCache as? DiskDataCache)
        _ = try await loader.image(for: ImageRequest(url: folder.appendingPathComponent("a.png")))
        let dataURI = "data:image/png;base64," + png.base64EncodedString()
        _ = try await loader.image(for: ImageRequest(source: dataURI))
        // Cache writes run beside the decode: wait for them before counting.
        await loader.waitForPendingWrites()
        #expect(await cache.stats().writes == 0)
        _ = try await loader.image(for: ImageRequest(url: server.url("/img/a.png?key=kept")))
        await loader.waitForPendingWrites()
        #expect(await cache.stats().writes == 1)
    }

    @Test func aTLSFailureIsOneAttemptAndNotRetried() async throws {
        let loader = makeLoader()
        // The loopback server speaks plain HTTP: the TLS handshake fails.
        var components = URLComponents(url: server.url("/img/a.png"), resolvingAgainstBaseURL: false)!
        components.scheme = "https"
        let attempts = Mutex(0)
        let listener = ImageLoadEventClosure { event in
            if case .fetchStarted = event.kind { attempts.withLock { $0 += 1 } }
        }
        let error = await #expect(throws: ImagoError.self) {
            _ = try await loader.image(for: ImageRequest(url: components.url!), listener: listener)
        }
        #expect(error?.kind == .transportFailed(status: nil))
        #expect(error?.attempts == 1)
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func aRefusedConnectionIsRetried() async throws {
        let loader = makeLoader()
        let error = await #expect(throws: ImagoError.self) {
            _ = try await loader.image(for: ImageRequest(url: URL(string: "http://127.0.0.1:1/a.png")!))
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.attempts == 3)
    }
}

/// The same through libcurl's transport, the default on Linux.
extension ImageLoaderEndToEndTests {
    func makeCurlLoader(cacheFolder: String) -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(CurlTransport())
        builder.add(Codec(decoder: PNGCodec(), encoder: PNGCodec()))
        builder.dataCache = DiskDataCache(
            configuration: DiskDataCache.Configuration(directory: folder.appendingPathComponent(cacheFolder)))
        let registry = builder.build()
        var settings = LoaderSettings()
        settings.retry = RetryPolicy(maxAttempts: 3, initialDelay: 0.01, maxDelay: 0.05)
        return ImageLoader(registry: registry, settings: settings)
    }

    @Test func curlAnswersAreKeptOnDiskAndItsRefusedConnectionsRetried() async throws {
        let loader = makeCurlLoader(cacheFolder: "curl")
        let request = ImageRequest(url: server.url("/img/a.png?key=curl-kept"))
        #expect(try await loader.image(for: request).origin == .network)
        await loader.waitForPendingWrites()
        #expect(try await loader.image(for: request).origin == .dataCache)
        #expect(try await server.count("curl-kept") == 1)
        let error = await #expect(throws: ImagoError.self) {
            _ = try await loader.image(for: ImageRequest(url: URL(string: "http://127.0.0.1:1/a.png")!))
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.attempts == 3)
    }
}
