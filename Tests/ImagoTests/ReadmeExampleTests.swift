import Foundation
import Imago
import Testing

/// The README's library example, kept compiling and true (with a local file in place of example.com).
@Suite struct ReadmeExampleTests {
    @Test func loadsAndResizesAsTheReadmeShows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-readme-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.png")
        let raster = try Raster(width: 600, height: 400, fill: RGBA(200, 100, 50))
        try PNGCodec().encode(DecodedImage(raster: raster, format: .png)).write(to: photo)

        let loader = ImageLoader.standard()  // every built-in transport, codec and cache
        let request = ImageRequest(
            url: photo,
            processors: [ResizeProcessor(size: PixelSize(width: 300, height: 300), mode: .fill)])
        let response = try await loader.image(for: request)
        #expect(response.image.width == 300)
        #expect(response.image.height == 300)
        #expect(response.origin == .network)
        #expect(response.image.raster[150, 150] == RGBA(200, 100, 50))

        let again = try await loader.image(for: request)
        #expect(again.origin == .memory)
    }

    @Test func loadsFromTheDefaultConfigurationFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-\(UUID()).json")
        let text = PluginRegistry.standardFactories().standardConfiguration().json.jsonText()
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let loader = try ImageLoader(contentsOf: file)
        let pixel = try PNGCodec().encode(
            DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(1, 2, 3)), format: .png))
        let url = try #require(URL(string: "data:image/png;base64," + pixel.base64EncodedString()))
        let response = try await loader.image(for: ImageRequest(url: url))
        #expect(response.image.raster[0, 0] == RGBA(1, 2, 3))
    }
}
