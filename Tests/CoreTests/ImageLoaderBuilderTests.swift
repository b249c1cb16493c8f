import Foundation
import ImagoCore
import ImagoTestSupport
import Synchronization
import Testing

/// Records the requests it sees, then passes them on (optionally with a header added).
private struct TaggingInterceptor: ImageInterceptor {
    let tag: String
    let seen: Updates<String>

    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        seen.append(tag)
        var request = chain.request
        request.headers["X-Tag", default: ""] += tag
        return try await chain.proceed(request)
    }
}

/// Allows the sources under `prefix` only.
private struct PrefixPolicy: SourceAccessPolicy {
    let prefix: String
    func check(_ url: URL) throws -> URL {
        guard url.absoluteString.hasPrefix(prefix) else {
            throw ImagoError(.addressRefused, "not allowed", source: url.absoluteString)
        }
        return url
    }
    func allowsConnection(to ip: String) -> Bool { true }
}

/// A decoder that is also an encoder, as a codec plugin usually is.
private struct EchoCodec: ImageDecoder, ImageEncoder {
    var format: ImageFormat { ImageFormat("echo") }
    var supportsAnimation: Bool { false }
    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("ECHO".utf8)) }
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(1, 2, 3)), format: format)
    }
    func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data { Data("ECHO".utf8) }
}

/// Coil's ergonomics: one verb, a builder for the whole loader, and changed copies that keep the rest.
@Suite struct ImageLoaderBuilderTests {
    @Test func aChangedCopyKeepsEverythingItDoesNotChange() async throws {
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        let events = EventRecorder()
        let seen = Updates<String>()
        let settings = LoaderSettings(maxConcurrentLoads: 3, retry: RetryPolicy(maxAttempts: 1))
        let loader = ImageLoader(registry: PluginRegistry(), settings: settings) { builder in
            builder.add(transport)
            builder.add(FakeDecoder())
            builder.add(events)
            builder.sourcePolicy = PrefixPolicy(prefix: "fake://host/a")
        }
        // One expression adds an interceptor to the loader the app already has.
        let traced = loader.with { $0.add(TaggingInterceptor(tag: "t", seen: seen)) }

        #expect(traced.settings == settings)
        #expect(traced.eventListeners.count == 1 && traced.sourcePolicy is PrefixPolicy)
        #expect(traced.registry.transports.count == 1 && traced.registry.decoders.count == 1)
        #expect(loader.registry.interceptors.isEmpty, "the original loader keeps its plugins")
        _ = try await traced.image(for: ImageRequest(url: URL(string: "fake://host/a")!))
        #expect(seen.values == ["t"])
        #expect(transport.requests.last?.headers["X-Tag"] == "t")
        #expect(events.names.first == "started" && events.names.last == "finished", "the listener came along")
        // The policy came along too: a source it refuses is refused by the copy.
        await #expect(throws: ImagoError.self) {
            _ = try await traced.image(for: ImageRequest(url: URL(string: "fake://host/b")!))
        }
        #expect(transport.callCount == 1, "the refused source was never fetched")
    }

    @Test func oneVerbAddsEveryKindOfPlugin() throws {
        let seen = Updates<String>()
        let registry = PluginRegistry().with { builder in
            builder.add(FakeTransport())
            builder.add(EchoCodec())  // a decoder and an encoder: added as both
            builder.add(TaggingInterceptor(tag: "a", seen: seen))
            builder.add(
                PluginFactory<any ImageProcessor>(name: "p") { _ in CropProcessor(x: 0, y: 0, width: 1, height: 1) })
            builder.add(
                PluginFactory<any ImageInterceptor>(name: "tag") { _ in TaggingInterceptor(tag: "b", seen: seen) })
            builder.add(preset: "one", [CropProcessor(x: 0, y: 0, width: 1, height: 1)])
        }
        #expect(registry.transports.count == 1 && registry.interceptors.count == 1)
        #expect(registry.decoder(for: ImageFormat("echo")) != nil && registry.encoder(for: ImageFormat("echo")) != nil)
        #expect(registry.factoryNames(.processor) == ["p"] && registry.factoryNames(.interceptor) == ["tag"])
        #expect(try registry.processors(named: "one").count == 1)
        // A value already typed as a protocol is taken as well.
        let transport: any ImageTransport = Bool.random() ? FakeTransport() as any ImageTransport : FakeTransport()
        #expect(registry.with { $0.add(transport) }.transports.count == 2)
    }

    @Test func interceptorsAreNamedInAConfigurationLikeEveryOtherKind() async throws {
        let seen = Updates<String>()
        let transport = FakeTransport()
        transport.serve("/a", data: FakeDecoder.encode())
        let factories = PluginRegistry().with { builder in
            builder.add(PluginFactory<any ImageTransport>(name: "fake") { _ in transport })
            builder.add(PluginFactory<Codec>(name: "fake") { _ in Codec(decoder: FakeDecoder()) })
            builder.add(
                PluginFactory<any ImageInterceptor>(name: "tag") { settings in
                    TaggingInterceptor(tag: try settings.string("tag") ?? "none", seen: seen)
                })
        }
        let json = try JSONValue.parse(
            Data(
                #"{"transports": ["fake"], "codecs": ["fake"], "interceptors": [{"name": "tag", "settings": {"tag": "1"}}, {"name": "tag", "settings": {"tag": "2"}}]}"#
                    .utf8))
        let configuration = try ImagoConfiguration(json: json)
        #expect(configuration.interceptors.map(\.name) == ["tag", "tag"])
        #expect(try ImagoConfiguration(json: configuration.json) == configuration, "the JSON form reads back")
        let loader = ImageLoader(registry: try factories.configured(by: configuration))
        _ = try await loader.image(for: ImageRequest(url: URL(string: "fake://host/a")!))
        #expect(seen.values == ["1", "2"], "in the order named, the first outermost")
        #expect(transport.requests.last?.headers["X-Tag"] == "12")

        let unknown = try ImagoConfiguration(json: .object(["interceptors": .array([.string("retry")])]))
        let error = #expect(throws: ImagoError.self) { try factories.configured(by: unknown) }
        #expect(error?.description.contains(#"interceptors[0]: unknown interceptor "retry" (known: "tag")"#) == true)
    }
}
