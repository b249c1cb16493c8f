import Foundation
import Imago
import Testing

/// The sample in Docs/Color.md, compiled and run on a committed ICC fixture.
@Suite struct ColorDocSampleTests {
    // Docs/Color.md, "When conversion happens" (kept identical).
    func thumbnail(_ data: Data) throws -> DecodedImage {
        let stored = try JPEGCodec().decode(data, options: DecodeOptions(colorProfiles: .keep))
        let small = try ResizeProcessor(width: 256, height: 256, mode: .fit).process(stored)
        return try ColorManagement.convertedToSRGB(small)  // converts 256x256 pixels, not the whole photo
    }

    @Test func convertsAfterTheResize() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ICC/rgb-adobe.jpg")
        let data = try Data(contentsOf: fixture)
        let image = try thumbnail(data)
        #expect(image.iccProfile == nil)
        #expect(image.colorProfileDescription == "Compatible with Adobe RGB (1998)")
        // Converted: not the stored pixels.
        let stored = try JPEGCodec().decode(data, options: DecodeOptions(colorProfiles: .ignore))
        #expect(image.raster != stored.raster)
    }
}
