import Foundation
import ImagoContracts
import ImagoCore
import Testing

/// The example plugins, registered through factories, are built from a configuration file and work together.
@Suite struct ExampleRegistrationTests {
    static let configurationText = """
        {
          "transports": [{"name": "memory", "settings": {"chunkSize": 4}}],
          "codecs": ["pam"],
          "imageCache": {"name": "dictionary", "settings": {"countLimit": 8}},
          "dataCache": "dictionary",
          "interceptors": [{"name": "fallback", "settings": {"grey": 90}}]
        }
        """

    static func configured(_ text: String) throws -> PluginRegistry {
        var builder = PluginRegistry.Builder()
        builder.registerExampleFactories()
        return try builder.build().configured(by: ImagoConfiguration(json: try JSONValue.parse(Data(text.utf8))))
    }

    @Test func configurationNamesTheExamplePlugins() async throws {
        let registry = try Self.configured(Self.configurationText)
        let transport = try #require(registry.transport(for: URL(string: "mem://store/a")!) as? MemoryTransport)
        #expect(transport.chunkSize == 4)
        #expect((registry.imageCache as? DictionaryImageCache)?.countLimit == 8)
        #expect((registry.dataCache as? DictionaryDataCache)?.byteLimit == 16 << 20)

        // Fetch, sniff, decode, process, cache: the loader's path through the registry.
        let url = transport.put(PAMFixtures.rgba.data, named: "a")
        let fetched = try await transport.fetchAll(TransportRequest(url: url))
        let decoder = try #require(registry.decoder(for: fetched.data))
        #expect(decoder.format == PAMCodec.pam)
        let image = try decoder.decode(fetched.data)
        let processor = try registry.makeProcessor(named: "grayscale", settings: .object(["intensity": .number(1)]))
        #expect(processor.identifier == "grayscale(1.0)")
        let gray = try processor.process(image)
        #expect(gray.raster[0, 0].r == gray.raster[0, 0].g)
        registry.imageCache?.store(gray, for: "a")
        #expect(registry.imageCache?.image(for: "a") == gray)
        let encoded = try #require(registry.encoder(for: PAMCodec.pam)).encode(gray)
        #expect(try decoder.decode(encoded) == gray.withFormat(PAMCodec.pam, encodedSize: encoded.count))

        // The configured interceptor, with its settings.
        let fallback = try #require(registry.interceptors.first as? FallbackInterceptor)
        #expect(registry.interceptors.count == 1 && fallback.placeholder.raster[0, 0] == RGBA(90, 90, 90))
    }

    @Test func badSettingsAreReportedWithTheirPath() throws {
        let text = #"{"transports": [{"name": "memory", "settings": {"chunkSize": 0}}]}"#
        #expect {
            try Self.configured(text)
        } throws: { error in
            (error as? ImagoError)?.kind == .invalidConfiguration
                && "\(error)".contains("transports[0].settings.chunkSize")
        }
        let misspelt = #"{"imageCache": {"name": "dictionary", "settings": {"countLimt": 8}}}"#
        #expect {
            try Self.configured(misspelt)
        } throws: { error in
            "\(error)".contains("imageCache.settings.countLimt")
        }
    }

    @Test func examplePluginOverridesABuiltInOfTheSameScheme() throws {
        // Registered later, a plugin is asked first: the memory transport wins over an earlier one.
        var builder = PluginRegistry.Builder()
        builder.add(MemoryTransport(chunkSize: 1))
        builder.add(MemoryTransport(chunkSize: 2))
        let registry = builder.build()
        let chosen = registry.transport(for: URL(string: "mem://store/x")!) as? MemoryTransport
        #expect(chosen?.chunkSize == 2)
    }
}

extension DecodedImage {
    /// The image as a decoder of `format` reports it.
    fileprivate func withFormat(_ format: ImageFormat, encodedSize: Int) -> DecodedImage {
        var copy = self
        copy.format = format
        copy.encodedSize = encodedSize
        return copy
    }
}
