import Testing

@testable import ImagoCore

/// Borders against Pillow's `ImageOps.expand`, exactly; the pixel budget is checked before allocating.
@Suite struct PadProcessorTests {
    @Test func matchesPillowExpand() async throws {
        let raster = try TestImages.photoLike(29, 19, alpha: false)
        let background = RGBA(10, 200, 30, 128)
        let pad = try PadProcessor(top: 3, right: 5, bottom: 7, left: 11, background: background)
        let padded = try pad.process(TestImages.image(raster))
        let expected = try await PythonReference.image(
            "out = ImageOps.expand(im, border=(11, 3, 5, 7), fill=(10, 200, 30, 128))", raster)
        #expect(padded.raster == expected)
        #expect(padded.width == 29 + 16 && padded.height == 19 + 10)
        #expect(padded.hasAlpha, "a translucent border gives the image alpha")
        #expect(pad.identifier == "pad(3,5,7,11,0ac81e80)")
    }

    @Test func opaqueBorderKeepsAnOpaqueImageOpaque() throws {
        let padded = try PadProcessor(all: 2, background: RGBA(.black)).process(
            TestImages.image(try TestImages.photoLike(4, 4, alpha: false)))
        #expect(!padded.hasAlpha)
        #expect(padded.raster[0, 0] == RGBA(0, 0, 0) && padded.raster[7, 7] == RGBA(0, 0, 0))
    }

    @Test func refusesNegativeSidesAndOutputsOverTheLimit() throws {
        #expect(throws: ImagoError.self) { try PadProcessor(top: -1, right: 0, bottom: 0, left: 0) }
        var pad = try PadProcessor(all: 10)
        pad.limits.maxPixels = 500
        let error = #expect(throws: ImagoError.self) {
            try pad.process(TestImages.image(try TestImages.photoLike(8, 8, alpha: false)))
        }
        #expect(error?.kind == .limitExceeded)
        // Int32.max a side would overflow a naive size computation.
        let huge = try PadProcessor(all: Int(Int32.max))
        let overflow = #expect(throws: ImagoError.self) {
            try huge.process(TestImages.image(try TestImages.photoLike(2, 2, alpha: false)))
        }
        #expect(overflow?.kind == .limitExceeded)
    }

    @Test func backgroundsParseFromHex() {
        #expect(RGBA(hex: "ff8000") == RGBA(255, 128, 0, 255))
        #expect(RGBA(hex: "FF800040") == RGBA(255, 128, 0, 64))
        for bad in ["", "fff", "ff80004", "gg8000", "#ff8000", "ff8000400"] { #expect(RGBA(hex: bad) == nil, "\(bad)") }
        #expect(RGBA(.white) == RGBA(255, 255, 255, 255))
    }
}
