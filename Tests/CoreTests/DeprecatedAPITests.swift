import Foundation
import ImagoCore
import ImagoTestSupport
import Testing

/// What code written for 0.1.0 calls on a registry, which was a class then. Reached through this protocol the
/// deprecated shims are called without a warning (the tests build with warnings as errors).
private protocol ClassEraRegistry {
    func register(_ transport: any ImageTransport)
    func register(_ decoder: any ImageDecoder)
    func registerFactory(_ factory: PluginFactory<any ImageProcessor>)
    func registerPreset(_ name: String, _ processors: [any ImageProcessor])
    var imageCache: (any ImageCache)? { get nonmutating set }
    var dataCache: (any DataCache)? { get nonmutating set }
    var processorFactoryNames: [String] { get }
    var presetNames: [String] { get }
    func makeDataCache(_ value: JSONValue, path: String) throws -> (name: String, cache: any DataCache)
}
extension PluginRegistry: ClassEraRegistry {}

/// The deprecated shims keep code written for 0.1.0 working as it did (Tests/Compatibility has a whole app).
@Suite struct DeprecatedAPITests {
    @Test func registeringIntoALetRegistryReachesTheLoadersMadeAfterwards() async throws {
        let registry = PluginRegistry()
        let old: any ClassEraRegistry = registry
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        let before = ImageLoader(registry: registry)
        old.register(transport)
        old.register(FakeDecoder())
        let cache = FakeImageCache()
        old.imageCache = cache
        old.dataCache = FakeDataCache()
        old.registerFactory(
            PluginFactory<any ImageProcessor>(name: "crop") { _ in CropProcessor(x: 0, y: 0, width: 1, height: 1) })
        old.registerPreset("tiny", [CropProcessor(x: 0, y: 0, width: 1, height: 1)])

        // As 0.1.0's class: every copy sees the registrations, and reads reflect them.
        let copy = registry
        #expect(
            copy.transports.count == 1 && copy.decoders.count == 1 && (copy.imageCache as? FakeImageCache) === cache)
        #expect(old.processorFactoryNames == ["crop"] && old.presetNames == ["tiny"])
        #expect(registry.dataCacheName == "FakeDataCache")
        let after = ImageLoader(registry: registry)
        let response = try await after.image(for: ImageRequest(url: URL(string: "fake://host/a")!))
        #expect(response.image.width == 4 && cache.storeCount == 1)
        #expect(try after.processors(named: "tiny").count == 1)
        // As 0.1.0's loaders: one made before keeps what it had, and one made after keeps what it got.
        #expect(before.registry.transports.isEmpty)
        old.register(FakeTransport(schemes: ["other"]))
        #expect(after.registry.transports.count == 1 && registry.transports.count == 2)
        // A builder made from the registry starts from what it holds now.
        #expect(PluginRegistry.Builder(registry).build().transports.count == 2)
    }

    @Test func theDataCacheSpecStillGivesItsName() throws {
        let registry = PluginRegistry().with { builder in
            builder.add(PluginFactory<any DataCache>(name: "fake") { _ in FakeDataCache() })
        }
        let (name, cache) = try (registry as any ClassEraRegistry).makeDataCache(.string("fake"), path: "x")
        #expect(name == "fake" && cache is FakeDataCache)
    }

    @Test func originsStoredBy010StillDecode() throws {
        // 0.1.0 called the data cache `disk`; stored values, and raw values, of that name are `dataCache`.
        let decoded = try JSONDecoder().decode([ImageOrigin].self, from: Data(#"["disk", "memory", "network"]"#.utf8))
        #expect(decoded == [.dataCache, .memory, .network])
        #expect(ImageOrigin(rawValue: "disk") == .dataCache && ImageOrigin(rawValue: "Disk") == nil)
        #expect(String(decoding: try JSONEncoder().encode(ImageOrigin.dataCache), as: UTF8.self) == #""dataCache""#)
        for origin in [ImageOrigin.memory, .dataCache, .network, .interceptor] {
            #expect(ImageOrigin(rawValue: origin.rawValue) == origin)
        }
    }
}
