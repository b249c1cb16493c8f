import Testing

@testable import ImagoCore

/// Nine-patch frames (thumbor's `frame(URL)`): padding read from the bottom row and right column, fixed cells at
/// their size, stretchy cells sharing what is left, drawn over the picture on a white canvas.
@Suite struct NinePatchFrameProcessorTests {
    /// 7 × 7: inner 5 × 5 with red corners (2 × 2), green edges and a transparent middle; the middle column and
    /// row stretch; the picture leaves 1 px of padding each side (bottom and right marks over inner 1…3).
    static let patch = Result {
        try TestImages.raster(7, 7) { x, y in
            let black = RGBA(0, 0, 0, 255)
            let border = x == 0 || y == 0 || x == 6 || y == 6
            if border {
                if (y == 0 && x == 3) || (x == 0 && y == 3) { return black }
                if (y == 6 && (2...4).contains(x)) || (x == 6 && (2...4).contains(y)) { return black }
                return RGBA(0, 0, 0, 0)
            }
            switch (x == 3, y == 3) {
            case (true, true): return RGBA(0, 0, 0, 0)
            case (false, false): return RGBA(255, 0, 0)
            default: return RGBA(0, 255, 0)
            }
        }
    }

    @Test func fixedCellsKeepTheirSizeAndStretchyOnesShareTheRest() throws {
        let processor = try NinePatchFrameProcessor(ninePatch: try Self.patch.get(), id: "p")
        #expect(processor.padding == (1, 1, 1, 1))
        let image = TestImages.image(try Raster(width: 10, height: 8, fill: RGBA(0, 0, 255)))
        let framed = try processor.process(image)
        let raster = framed.raster
        #expect(raster.width == 12 && raster.height == 10 && !framed.hasAlpha)
        #expect(processor.predictedOutputSize(for: PixelSize(width: 10, height: 8)) == PixelSize(width: 12, height: 10))
        // Columns: 2 fixed, 8 stretched, 2 fixed; rows: 2, 6, 2.
        for (x, y) in [(0, 0), (1, 1), (11, 9), (10, 0), (0, 8)] {
            #expect(raster[x, y] == RGBA(255, 0, 0), "\(x),\(y)")
        }
        for (x, y) in [(2, 0), (9, 1), (0, 2), (1, 7), (5, 9), (11, 5)] {
            #expect(raster[x, y] == RGBA(0, 255, 0), "\(x),\(y)")
        }
        // The transparent middle shows the picture, placed 1 px in.
        for (x, y) in [(2, 2), (9, 7), (5, 5)] { #expect(raster[x, y] == RGBA(0, 0, 255), "\(x),\(y)") }
    }

    @Test func aTransparentPictureIsDrawnOverWhite() throws {
        let processor = try NinePatchFrameProcessor(ninePatch: try Self.patch.get())
        let clear = TestImages.image(try Raster(width: 10, height: 8, fill: RGBA(0, 0, 255, 0)))
        let raster = try processor.process(clear).raster
        #expect(raster[5, 5] == RGBA(255, 255, 255) && raster[0, 0] == RGBA(255, 0, 0))
    }

    @Test func identifiersSizesAndBadPatches() throws {
        let patch = try Self.patch.get()
        #expect(try NinePatchFrameProcessor(ninePatch: patch, id: "frame.png").identifier == "ninepatch(frame.png)")
        #expect(try NinePatchFrameProcessor(ninePatch: patch).identifier.hasPrefix("ninepatch(xxh64:"))
        #expect(throws: ImagoError.self) {
            try NinePatchFrameProcessor(ninePatch: try Raster(width: 2, height: 9, fill: RGBA(0, 0, 0)))
        }
        // Without padding marks the picture keeps its size; the held bytes count the patch and the canvas.
        let plain = try NinePatchFrameProcessor(ninePatch: try Raster(width: 5, height: 5, fill: RGBA(0, 0, 0, 0)))
        #expect(plain.padding == (0, 0, 0, 0))
        #expect(plain.heldBytes(for: PixelSize(width: 10, height: 10)) == 100 + 400)
        // A canvas over the limits is refused before it is made.
        var limited = try NinePatchFrameProcessor(ninePatch: patch)
        limited.limits = DecodeLimits(maxPixels: 50)
        #expect(throws: ImagoError.self) {
            try limited.process(TestImages.image(try Raster(width: 10, height: 8, fill: RGBA(0, 0, 255))))
        }
    }
}
