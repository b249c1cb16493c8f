import Foundation
import Imago
import Testing

@Suite struct ImageLoaderConfigurationTests {
    @Test func standardLoaderHasTheStandardProcessorsAndDefaultSettings() throws {
        let loader = ImageLoader.standard()
        #expect(loader.settings == LoaderSettings())
        let resize = try loader.registry.makeProcessor(
            named: "resize", settings: .object(["width": .number(100), "height": .number(50), "mode": .string("fill")]))
        #expect(resize.identifier == "resize(100x50,fill,noupscale,lanczos3)")
        let crop = try loader.registry.makeProcessor(
            named: "crop", settings: .object(["x": .number(1), "width": .number(2), "height": .number(3)]))
        #expect(crop.identifier == "crop(1,0,2x3)")
        #expect(try loader.registry.makeProcessor(named: "orientation").identifier == "orientation")
    }

    @Test func standardLoaderLoadsADataURIThroughTheBuiltIns() async throws {
        let raster = try Raster(width: 6, height: 4, fill: RGBA(10, 200, 30))
        let png = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
        let url = URL(string: "data:image/png;base64," + png.base64EncodedString())!
        let loader = ImageLoader.standard()
        let response = try await loader.image(
            for: ImageRequest(url: url, processors: [ResizeProcessor(width: 3, height: 3)]))
        #expect(response.image.width == 3 && response.image.height == 2)
        #expect(response.image.raster[1, 1] == RGBA(10, 200, 30))
        #expect(try await loader.image(for: ImageRequest(url: url)).image.format == .png)
    }

    @Test func processorSettingsErrorsNameTheirPath() throws {
        let registry = PluginRegistry.standardFactories()
        let missing = #expect(throws: ImagoError.self) {
            try registry.makeProcessor(
                named: "resize", settings: .object(["width": .number(10)]), path: "processors[0]")
        }
        #expect(missing?.kind == .invalidConfiguration)
        #expect(missing?.reason.hasPrefix("processors[0].height") == true)
        let badMode = #expect(throws: ImagoError.self) {
            try registry.makeProcessor(
                named: "resize",
                settings: .object(["width": .number(10), "height": .number(10), "mode": .string("stretch")]),
                path: "p")
        }
        #expect(badMode?.reason.hasPrefix("p.mode") == true)
        let unknownKey = #expect(throws: ImagoError.self) {
            try registry.makeProcessor(named: "orientation", settings: .object(["angle": .number(90)]), path: "p")
        }
        #expect(unknownKey?.reason.contains("p.angle") == true)
    }

    @Test func configurationLoaderTakesItsSettings() throws {
        let configuration = ImagoConfiguration(loader: LoaderSettings(maxConcurrentLoads: 3, maxConcurrentDecodes: 1))
        let loader = try ImageLoader(configuration: configuration)
        #expect(loader.settings.maxConcurrentLoads == 3)
        #expect(loader.settings.maxConcurrentDecodes == 1)
    }

    @Test func unknownPluginFailsWithItsPath() throws {
        let configuration = ImagoConfiguration(transports: [PluginSpec("gopher")])
        let error = #expect(throws: ImagoError.self) { try ImageLoader(configuration: configuration) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.reason.hasPrefix("transports[0]") == true)
        #expect(error?.reason.contains("gopher") == true)
    }

    @Test func configurationFileErrorsNameTheFileAndPath() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imago-loader-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"imageCache": "nonsense", "loader": {"maxConcurrentLoads": 2}}"#.utf8).write(to: url)
        let error = #expect(throws: ImagoError.self) { try ImageLoader(contentsOf: url) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.source == url.path)
        #expect(error?.reason.hasPrefix("imageCache") == true)

        try Data(#"{"loader": {"maxConcurrentLoads": 0}}"#.utf8).write(to: url)
        let range = #expect(throws: ImagoError.self) { try ImageLoader(contentsOf: url) }
        #expect(range?.reason.hasPrefix("loader.maxConcurrentLoads") == true)
    }
}
