import Foundation
import Synchronization
import Testing

@testable import Imago

/// A user's transport for `shelf://` URLs, made by a factory with a `greeting` setting it puts in the body.
private struct ShelfTransport: ImageTransport {
    let images: [String: Data]
    var schemes: Set<String> { ["shelf"] }
    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let data = images[request.url.lastPathComponent]
        let source = request.url.absoluteString
        return AsyncThrowingStream { continuation in
            guard let data else {
                return continuation.finish(throwing: ImagoError(.invalidSource, "not on the shelf", source: source))
            }
            continuation.yield(.response(TransportMetadata(expectedLength: Int64(data.count))))
            continuation.yield(.bytes(data))
            continuation.finish()
        }
    }
}

/// A user's processor: multiplies the red channel by `factor`.
private struct RedProcessor: ImageProcessor {
    let factor: Double
    var identifier: String { "red(\(factor))" }
    func process(_ image: DecodedImage) throws -> DecodedImage {
        var image = image
        var pixels = image.raster.pixels
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = UInt8(min(255, Double(pixels[index]) * factor))
        }
        image.frames = [ImageFrame(raster: try Raster(width: image.width, height: image.height, pixels: pixels))]
        return image
    }
}

@Suite struct ImageLoaderFactoriesTests {
    static let png: Data = {
        let raster = try! Raster(width: 8, height: 4, fill: RGBA(100, 50, 25))
        return try! PNGCodec().encode(DecodedImage(raster: raster, format: .png))
    }()

    static let factories = PluginFactories(
        transports: [
            PluginFactory<any ImageTransport>(name: "shelf") { settings in
                ShelfTransport(images: [try settings.string("name") ?? "a.png": png])
            }
        ],
        processors: [
            PluginFactory<any ImageProcessor>(name: "red") { settings in
                RedProcessor(factor: try settings.double("factor", default: 2, in: 0...10))
            }
        ])

    func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imago-factories-\(UUID()).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aConfigurationNamesTheCallersPluginsAndPresets() async throws {
        let url = try file(
            """
            {"transports": ["data", {"name": "shelf", "settings": {"name": "b.png"}}],
             "processing": {"thumbnail": [{"name": "resize", "settings": {"width": 4, "height": 4}},
                                          {"name": "red", "settings": {"factor": 2}}]}}
            """)
        defer { try? FileManager.default.removeItem(at: url) }
        let loader = try ImageLoader(contentsOf: url, factories: Self.factories)
        let processors = try loader.processors(named: "thumbnail")
        #expect(processors.map(\.identifier) == ["resize(4x4,fit,noupscale,lanczos3)", "red(2.0)"])
        let request = ImageRequest(url: URL(string: "shelf://x/b.png")!, processors: processors, cachePolicy: .none)
        let response = try await loader.image(for: request)
        #expect(response.image.width == 4 && response.image.height == 2)
        #expect(response.image.raster[1, 1] == RGBA(200, 50, 25))
    }

    @Test func keysLeftOutTakeTheDefaultsExactlyAsWithoutFactories() throws {
        let url = try file(#"{"loader": {"maxConcurrentLoads": 3}}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let plain = try ImageLoader(contentsOf: url)
        let extended = try ImageLoader(contentsOf: url, factories: Self.factories)
        func describe(_ loader: ImageLoader) -> [String] {
            loader.registry.transports.map { "\(type(of: $0))" } + loader.registry.decoders.map(\.format.rawValue)
                + ["\(type(of: loader.imageCache))", "\(type(of: loader.dataCache))", "\(loader.settings)"]
        }
        #expect(describe(plain) == describe(extended))
        #expect(extended.imageCache is MemoryImageCache)
        #expect(extended.dataCache is DiskDataCache)
        #expect(extended.settings.maxConcurrentLoads == 3)
    }

    @Test func unknownNamesListTheKnownOnes() throws {
        let transport = try file(#"{"transports": ["gopher"]}"#)
        let processor = try file(#"{"processing": {"p": ["blur"]}}"#)
        defer { [transport, processor].forEach { try? FileManager.default.removeItem(at: $0) } }
        let unknownTransport = #expect(throws: ImagoError.self) {
            try ImageLoader(contentsOf: transport, factories: Self.factories)
        }
        let known = PluginRegistry.standardFactories().factoryNames(.transport) + ["shelf"]
        let list = known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(unknownTransport?.reason.hasSuffix("(known: \(list))") == true, "\(unknownTransport?.reason ?? "")")
        #expect(list.contains(#""shelf""#) && list.contains(#""http""#))
        let unknownProcessor = #expect(throws: ImagoError.self) {
            try ImageLoader(contentsOf: processor, factories: Self.factories)
        }
        #expect(unknownProcessor?.reason.hasPrefix("processing.p[0]") == true)
        #expect(unknownProcessor?.reason.contains(#""red", "resize""#) == true)
        let unknownPreset = #expect(throws: ImagoError.self) { try ImageLoader.standard().processors(named: "x") }
        #expect(unknownPreset?.kind == .invalidConfiguration)
        #expect(unknownPreset?.reason == #"unknown processing preset "x" (known: none)"#)
        let byName = #expect(throws: ImagoError.self) { try PluginRegistry.standard().makeProcessor(named: "blur") }
        #expect(byName?.reason.contains(#"(known: "crop", "options", "orientation", "resize")"#) == true)
    }

    @Test func presetsRoundTripThroughJSON() throws {
        let configuration = ImagoConfiguration(
            processing: [
                "small": [PluginSpec("resize", settings: .object(["width": .number(8), "height": .number(8)]))]
            ])
        let again = try ImagoConfiguration(json: configuration.json)
        #expect(again == configuration)
        let bad = #expect(throws: ImagoError.self) {
            try ImagoConfiguration(json: try JSONValue.parse(Data(#"{"processing": {"p": 3}}"#.utf8)))
        }
        #expect(bad?.reason.hasPrefix("processing.p: expected an array of processors or an options string") == true)
        // A string is a preset in the options grammar (issue 24), and reads back as one.
        let text = try ImagoConfiguration(json: try JSONValue.parse(Data(#"{"processing": {"p": "w=8"}}"#.utf8)))
        #expect(ImagoConfiguration.optionsText(of: text.processing["p"] ?? []) == "w=8")
        #expect(try ImagoConfiguration(json: text.json) == text)
    }

    @Test func theStandardRegistryDoesNotFallBackToAnEmptyOne() throws {
        let registry = PluginRegistry.standard()
        #expect(registry.transports.count == 3)
        #expect(registry.decoders.count == PluginRegistry.standardCodecs.count)
        #expect(registry.imageCache != nil && registry.dataCache != nil)
        // Without a factory the default configuration names, building it fails instead of giving no plugins.
        var brokenBuilder = PluginRegistry.Builder()
        brokenBuilder.add(
            PluginFactory<any ImageTransport>(name: "http") { _ in ShelfTransport(images: [:]) })
        let broken = brokenBuilder.build()
        #expect(throws: ImagoError.self) { try PluginRegistry.standard(from: broken) }
    }
}
