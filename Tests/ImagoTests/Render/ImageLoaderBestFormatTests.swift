import Foundation
import Imago
import Testing

/// `f=best` (and thumbor's `autojpg`, which reuses it) decides between JPEG and PNG on the processed pixels: an
/// alpha channel whose pixels are all opaque keeps JPEG a candidate, as thumbor's `autojpg` looks at the pixels.
@Suite struct ImageLoaderBestFormatTests {
    /// Marks the image as having an alpha channel, its pixels left as they are.
    struct WithAlphaChannel: ImageProcessor {
        var identifier: String { "with-alpha-channel" }
        func process(_ image: DecodedImage) throws -> DecodedImage {
            var image = image
            image.hasAlpha = true
            return image
        }
    }

    func render(_ raster: Raster) async throws -> RenderResult {
        let rig = RenderRig()
        let source = try rig.registry.encoder(for: .png)!.encode(
            DecodedImage(raster: raster, format: .png), options: .default)
        let image = ImageRequest(
            url: URL(string: "memory:source")!, processors: [WithAlphaChannel()], cachePolicy: .none)
        let output = RenderOutput(format: .best(among: [.jpeg, .png]), options: EncodeOptions(quality: 80))
        return try await rig.loader.render(RenderRequest(image: image, output: output, sourceData: source))
    }

    @Test func anRGBARasterWhoseAlphaIs255EverywhereIsOpaque() async throws {
        let opaque = try Raster(width: 40, height: 30, fill: RGBA(200, 40, 10, 255))
        let rendered = try await render(opaque)
        #expect(rendered.format == .jpeg && rendered.data.starts(with: [0xFF, 0xD8]))
        // One pixel below 255 keeps the alpha: PNG.
        var pixels = [UInt8](repeating: 255, count: 40 * 30 * 4)
        pixels[(12 * 40 + 7) * 4 + 3] = 254
        let translucent = try await render(try Raster(width: 40, height: 30, pixels: pixels))
        #expect(translucent.format == .png && translucent.data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
