import Testing

@testable import ImagoCore

/// imgproxy's gravity offsets on a crop window and on an extension (its `calcPosition`, worked out by hand).
@Suite struct GravityOffsetTests {
    @Test func aCropWindowMovesInwardFromItsEdge() throws {
        let image = TestImages.image(try TestImages.raster(100, 50) { x, y in RGBA(UInt8(x), UInt8(y), 0) })
        var crop = CropProcessor(windowWidth: .pixels(40), windowHeight: .pixels(20), gravity: .east)
        crop.offset = (10, 5)
        // East: left = 100 − 40 − 10 = 50; the centre row (50 − 20) / 2 = 15, plus 5 = 20.
        let cut = try crop.process(image).raster
        #expect(cut[0, 0] == RGBA(50, 20, 0))
        #expect(crop.identifier == "crop(40x20,g=e,off=10.0:5.0)")
        // Fractions of the side, clamped at the far edge.
        crop.offset = (0.9, 0)
        #expect(try crop.process(image).raster[0, 0] == RGBA(0, 15, 0))
    }

    @Test func anExtensionMovesTheImage() throws {
        let image = TestImages.image(try TestImages.raster(10, 10) { _, _ in RGBA(9, 9, 9) }, hasAlpha: false)
        var extend = try ExtendProcessor(width: 30, height: 30, gravity: .west, background: RGBA(0, 0, 0))
        extend.offset = (5, 0)
        let placed = try extend.process(image).raster
        #expect(placed[4, 10] == RGBA(0, 0, 0) && placed[5, 10] == RGBA(9, 9, 9) && placed[14, 10] == RGBA(9, 9, 9))
        #expect(extend.identifier == "extend(30x30,g=w,000000ff,off=5.0:0.0)")
    }
}
