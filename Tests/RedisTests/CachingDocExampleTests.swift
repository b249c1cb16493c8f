import Foundation
import Imago
import ImagoTestSupport
import Testing

/// Docs/Caching.md's examples, kept true: its configuration builds the stack it describes, and its Swift sample
/// (with the test's server and folder) loads through Redis.
@Suite struct CachingDocExampleTests {
    static var document: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("Docs/Caching.md"), encoding: .utf8)
        }
    }

    @Test func theConfigurationBuildsADiskOverRedisStack() throws {
        let text = try Self.document
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let json = try JSONValue.parse(Data(text[start.upperBound..<end.lowerBound].utf8))
        let factories = PluginRegistry.standardFactories()
        let configuration = try ImagoConfiguration(json: json, defaults: factories.standardConfiguration())
        let tiered = try #require(try factories.configured(by: configuration).dataCache as? TieredDataCache)
        #expect(tiered.layers.map(\.name) == ["disk", "redis"])
        let redis = try #require(tiered.layers[1].cache as? RedisDataCache)
        #expect(redis.configuration == .init(endpoint: .init(host: "127.0.0.1", password: "secret")))
    }

    @Test func theSwiftSampleLoadsThroughRedis() async throws {
        let server = try RedisServer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-doc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (png, raster) = try NoiseImage.png(seed: 3)
        let origin = try CountingOrigin(files: ["a.png": png])

        // From Docs/Caching.md, with this test's server, folder and a prefix of its own.
        let errors = AsyncStream<ImagoError>.makeStream()
        let redis = RedisDataCache(
            configuration: .init(endpoint: try RedisEndpoint(url: server.url()), keyPrefix: "doc:"),
            onError: { errors.continuation.yield($0) })
        let disk = DiskDataCache(configuration: .init(directory: folder))
        var builder = PluginRegistry.Builder(.standard())
        builder.dataCache = TieredDataCache(layers: [
            .init(name: "disk", cache: disk), .init(name: "redis", cache: redis),
        ])
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)

        let response = try await loader.image(for: ImageRequest(url: origin.url("a.png")))
        #expect(response.image.raster == raster)
        // The data-cache write runs beside the decode (Architecture.md): wait for it before looking in Redis.
        await loader.waitForPendingWrites()
        #expect(try await redis.contents().entries == 1)
        errors.continuation.finish()
        var reported = 0
        for await _ in errors.stream { reported += 1 }
        #expect(reported == 0)
    }
}

/// Docs/Caching.md's Swift sample, verbatim, so it compiles with the tests (`DocSamplesTests` checks that it is
/// here); `theSwiftSampleLoadsThroughRedis` runs the same lines against the test's own server and folder.
enum CachingDocSample {
    static func loader() throws -> ImageLoader {
        let errors = AsyncStream<ImagoError>.makeStream()
        let redis = RedisDataCache(
            configuration: .init(endpoint: try RedisEndpoint(url: "redis://127.0.0.1:6379/0"), keyPrefix: "imago:"),
            onError: { errors.continuation.yield($0) })
        let disk = DiskDataCache(configuration: .init(directory: URL(fileURLWithPath: "/var/cache/imago")))
        var builder = PluginRegistry.Builder(.standard())
        builder.dataCache = TieredDataCache(layers: [
            .init(name: "disk", cache: disk), .init(name: "redis", cache: redis),
        ])
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)
        return loader
    }
}
