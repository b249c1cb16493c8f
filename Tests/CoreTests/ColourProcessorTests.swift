import Testing

@testable import ImagoCore

/// Grayscale against Pillow's `convert("L")`; brightness, contrast and round corners against thumbor's own C
/// filters (`thumbor.ext.filters`, in the virtual environment Scripts/setup.sh makes), run on the same pixels.
@Suite struct ColourProcessorTests {
    static let thumborPython = "/opt/imago-thumbor-venv/bin/python3"

    func thumbor(_ script: String, _ raster: Raster, _ arguments: [String]) async throws -> Raster {
        try await PythonReference.image(script, raster, arguments: arguments, interpreter: Self.thumborPython)
    }

    @Test func grayscaleEqualsPillowAndKeepsAlpha() async throws {
        let raster = try TestImages.photoLike(37, 23, alpha: true)
        let grey = try GrayscaleProcessor().process(TestImages.image(raster)).raster
        let expected = try await PythonReference.image("out = im.convert('LA')", raster)
        #expect(PythonReference.maxDifference(grey, expected) == 0)
        #expect(grey[3, 4].a == raster[3, 4].a)
        #expect(GrayscaleProcessor().identifier == "grayscale")
    }

    @Test(arguments: [-100, -37, 15, 100])
    func brightnessEqualsThumbor(amount: Int) async throws {
        let raster = try TestImages.photoLike(31, 17, alpha: false)
        let bright = try BrightnessProcessor(amount: amount).process(TestImages.image(raster)).raster
        let expected = try await thumbor(
            """
            from thumbor.ext.filters import _brightness
            out = Image.frombytes('RGBA', im.size, _brightness.apply('RGBA', int(args[0]), im.tobytes()))
            """, raster, ["\(amount)"])
        #expect(PythonReference.maxDifference(bright, expected) == 0)
        #expect(bright != raster)
    }

    @Test(arguments: [-100, -40, 25, 100])
    func contrastEqualsThumbor(amount: Int) async throws {
        let raster = try TestImages.photoLike(31, 17, alpha: false)
        let contrasted = try ContrastProcessor(amount: amount).process(TestImages.image(raster)).raster
        let expected = try await thumbor(
            """
            from thumbor.ext.filters import _contrast
            out = Image.frombytes('RGBA', im.size, _contrast.apply('RGBA', int(args[0]), im.tobytes()))
            """, raster, ["\(amount)"])
        #expect(PythonReference.maxDifference(contrasted, expected) == 0)
    }

    @Test func roundCornersMatchThumborsShape() async throws {
        let raster = try TestImages.raster(60, 40) { _, _ in RGBA(20, 120, 220) }
        let rounded = try RoundCornerProcessor(radiusX: 12, radiusY: 8, background: RGBA(255, 0, 0))
            .process(TestImages.image(raster, hasAlpha: false)).raster
        let expected = try await thumbor(
            """
            from thumbor.ext.filters import _round_corner
            rgb = im.convert('RGB')
            data = _round_corner.apply(1, 'RGB', 12, 8, 255, 0, 0, im.size[0], im.size[1], rgb.tobytes(), 0)
            out = Image.frombytes('RGB', im.size, data)
            """, raster, [])
        // The outer corner pixels are the background, the middle and the edges' middles untouched, both ways.
        for (x, y) in [(0, 0), (59, 0), (0, 39), (59, 39)] {
            #expect(rounded[x, y] == RGBA(255, 0, 0) && expected[x, y] == RGBA(255, 0, 0), "(\(x), \(y))")
        }
        for (x, y) in [(30, 20), (30, 0), (0, 20), (59, 20), (30, 39)] {
            #expect(rounded[x, y] == raster[x, y] && expected[x, y] == raster[x, y], "(\(x), \(y))")
        }
        // Elsewhere the curves agree up to antialiasing: on average within 6 levels over the corner boxes.
        var total = 0
        for y in 0..<40 { for x in 0..<60 { total += abs(Int(rounded[x, y].r) - Int(expected[x, y].r)) } }
        #expect(Double(total) / Double(60 * 40) < 6, "mean red difference \(Double(total) / 2400)")
        #expect(
            try RoundCornerProcessor(radiusX: 12, radiusY: 8, background: RGBA(255, 0, 0, 0)).identifier
                == "round(12x8,ff000000)")
    }

    @Test func transparentCornersGiveAlpha() throws {
        let image = TestImages.image(try TestImages.raster(20, 20) { _, _ in RGBA(9, 9, 9) }, hasAlpha: false)
        let rounded = try RoundCornerProcessor(radiusX: 5, radiusY: 5, background: RGBA(0, 0, 0, 0)).process(image)
        #expect(rounded.hasAlpha && rounded.raster[0, 0].a == 0 && rounded.raster[10, 10] == RGBA(9, 9, 9))
    }

    @Test func outOfRangeAmountsAreTypedErrors() {
        for amount in [-101, 101] {
            #expect(throws: ImagoError.self) { try BrightnessProcessor(amount: amount) }
            #expect(throws: ImagoError.self) { try ContrastProcessor(amount: amount) }
        }
        #expect(throws: ImagoError.self) { try RoundCornerProcessor(radiusX: 0, radiusY: 3, background: RGBA(0, 0, 0)) }
        #expect((try? BrightnessProcessor(amount: -5))?.identifier == "brightness(-5)")
        #expect((try? ContrastProcessor(amount: 30))?.identifier == "contrast(30)")
    }
}
