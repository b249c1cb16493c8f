import Testing

@testable import ImagoCore

/// Watermarks: placement by gravity, "source over" compositing in straight alpha (against Pillow's
/// `alpha_composite`), scaling to a fraction of the width, and identifiers naming the watermark.
@Suite struct WatermarkProcessorTests {
    static let mark = Result {
        try TestImages.raster(8, 6) { x, y in RGBA(255, UInt8(x * 30), UInt8(y * 40), UInt8(60 + x * 20 + y * 5)) }
    }

    @Test(arguments: [true, false])
    func compositesLikePillowAlphaComposite(opaqueBase: Bool) async throws {
        let base = try TestImages.photoLike(30, 20, alpha: !opaqueBase)
        let mark = try Self.mark.get()
        let result = try WatermarkProcessor(watermark: mark, opacity: 1, gravity: .southEast).process(
            TestImages.image(base))
        // Pillow: the watermark pasted on a transparent layer at (22, 14), alpha-composited over the image.
        let markFile = try await PythonReference.image("out = im", mark)
        #expect(markFile == mark)
        let expected = try await PythonReference.image(
            """
            layer = Image.new("RGBA", im.size, (0, 0, 0, 0))
            mark = Image.frombytes("RGBA", (8, 6), bytes(int(v) for v in args[0].split(",")))
            layer.paste(mark, (22, 14))
            out = Image.alpha_composite(im, layer)
            """, base, arguments: [mark.pixels.map(String.init).joined(separator: ",")])
        let worst = PythonReference.maxDifference(result.raster, expected)
        #expect(worst <= 1, "\(worst) levels off")
        #expect(result.raster[0, 0] == base[0, 0], "outside the watermark nothing changes")
    }

    @Test func opacityScalesTheWatermarksAlpha() throws {
        let base = try Raster(width: 10, height: 10, fill: RGBA(0, 0, 0))
        let white = try Raster(width: 2, height: 2, fill: RGBA(255, 255, 255))
        let result = try WatermarkProcessor(watermark: white, opacity: 0.5, gravity: .northWest)
            .process(TestImages.image(base)).raster
        #expect(abs(Int(result[1, 1].r) - 128) <= 1 && result[1, 1].a == 255)
        #expect(result[2, 2] == RGBA(0, 0, 0))
    }

    @Test func scaleFitsAFractionOfTheWidthAndGravityPlacesIt() throws {
        let base = try Raster(width: 100, height: 50, fill: RGBA(0, 0, 0))
        let red = try Raster(width: 20, height: 10, fill: RGBA(255, 0, 0))
        let result = try WatermarkProcessor(watermark: red, gravity: .north, scale: 0.5)
            .process(TestImages.image(base)).raster
        // 50 × 25 at (25, 0).
        #expect(result[25, 0].r == 255 && result[74, 24].r == 255)
        #expect(result[24, 0].r == 0 && result[75, 0].r == 0 && result[50, 25].r == 0)
    }

    @Test func identifiersNameTheWatermarkAndBadValuesAreTypedErrors() throws {
        let mark = try Self.mark.get()
        let other = try Raster(width: 8, height: 6, fill: RGBA(1, 2, 3))
        let a = try WatermarkProcessor(watermark: mark, opacity: 0.5, gravity: .center, scale: 0.25)
        let b = try WatermarkProcessor(watermark: other, opacity: 0.5, gravity: .center, scale: 0.25)
        #expect(a.identifier != b.identifier)
        #expect(a.identifier.hasPrefix("watermark(xxh64:") && a.identifier.hasSuffix(",0.5,g=c,0.25)"))
        #expect(try WatermarkProcessor(watermark: mark, id: "logo").identifier == "watermark(logo,1.0,g=se)")
        // A decoded image is drawn upright: its orientation is applied first.
        var decoded = TestImages.image(mark)
        decoded.orientation = .right
        let upright = try WatermarkProcessor(watermark: decoded)
        #expect(upright.watermark == (try mark.oriented(.right)) && upright.watermark.width == 6)
        for make in [
            { try WatermarkProcessor(watermark: mark, opacity: 1.5) },
            { try WatermarkProcessor(watermark: mark, gravity: .smart) },
            { try WatermarkProcessor(watermark: mark, scale: 0) },
            { try WatermarkProcessor(watermark: mark, scale: 2) },
        ] {
            let error = #expect(throws: ImagoError.self) { try make() }
            #expect(error?.kind == .processingFailed)
        }
    }
}
