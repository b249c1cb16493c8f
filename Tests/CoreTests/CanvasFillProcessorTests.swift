import Testing

@testable import ImagoCore

/// `FlattenProcessor` (thumbor's `background_color`) and `CanvasFillProcessor` (thumbor's `fill`) against the same
/// steps done by thumbor's own code: its `_composite` C filter, `_fill`'s mean colour, and its blur.
@Suite struct CanvasFillProcessorTests {
    static let python = ColourProcessorTests.thumborPython

    @Test func flattenEqualsThumborsCompositeWithinALevel() async throws {
        let raster = try TestImages.photoLike(30, 20, alpha: true)
        let flat = try FlattenProcessor(background: RGBA(0, 0, 255)).process(TestImages.image(raster))
        let expected = try await PythonReference.image(
            """
            from thumbor.ext.filters import _composite
            canvas = Image.new('RGBA', im.size, (0, 0, 255))
            out = Image.frombytes('RGBA', im.size, _composite.apply('RGBA', canvas.tobytes(), im.size[0], im.size[1],
                im.tobytes(), im.size[0], im.size[1], 0, 0))
            """, raster, interpreter: Self.python)
        // thumbor truncates where Imago rounds.
        #expect(PythonReference.maxDifference(flat.raster, expected) <= 1)
        #expect(!flat.hasAlpha)
        #expect(FlattenProcessor(background: RGBA(1, 2, 3)).identifier == "flatten(010203ff)")
    }

    @Test func aTranslucentBackgroundKeepsAlpha() throws {
        let clear = TestImages.image(try TestImages.raster(4, 4) { _, _ in RGBA(0, 0, 0, 0) })
        let flat = try FlattenProcessor(background: RGBA(200, 100, 0, 128)).process(clear)
        #expect(flat.hasAlpha && flat.raster[1, 1] == RGBA(200, 100, 0, 128))
    }

    /// thumbor's `fill(00ff00,true)` on a transparent PNG in a larger fit-in box (issue 35: 12 dB before): the
    /// canvas and the image's own transparent area take the colour.
    @Test(arguments: [true, false])
    func fillWithAColourEqualsThumbor(fillsTransparency: Bool) async throws {
        let raster = try TestImages.photoLike(30, 20, alpha: true)
        let filled = try CanvasFillProcessor(
            width: 40, height: 35, fill: .colour(RGBA(0, 255, 0)), fillsTransparency: fillsTransparency
        ).process(TestImages.image(raster))
        let expected = try await PythonReference.image(
            """
            from thumbor.ext.filters import _composite
            canvas = Image.new('RGBA', (40, 35), (0, 255, 0))
            x, y = (40 - im.size[0]) // 2, (35 - im.size[1]) // 2
            if args[0] == '1':
                out = Image.frombytes('RGBA', (40, 35), _composite.apply('RGBA', canvas.tobytes(), 40, 35,
                    im.tobytes(), im.size[0], im.size[1], x, y))
            else:
                canvas.paste(im, (x, y))
                out = canvas
            """, raster, arguments: [fillsTransparency ? "1" : "0"], interpreter: Self.python)
        #expect(PythonReference.maxDifference(filled.raster, expected) <= 1)
        #expect(filled.hasAlpha == !fillsTransparency)
    }

    @Test func fillWithTheMeanColourEqualsThumborsAuto() async throws {
        let raster = try TestImages.photoLike(30, 20, alpha: false)
        let filled = try CanvasFillProcessor(width: 30, height: 40, fill: .average)
            .process(TestImages.image(raster, hasAlpha: false))
        let expected = try await PythonReference.image(
            """
            from thumbor.ext.filters import _fill
            colour = _fill.apply('RGB', im.convert('RGB').tobytes())
            out = Image.new('RGBA', (30, 40), tuple(colour))
            out.paste(im, (0, 10))
            """, raster, interpreter: Self.python)
        #expect(PythonReference.maxDifference(filled.raster, expected) == 0)
    }

    @Test func fillWithABlurIsNearThumbors() async throws {
        let raster = try TestImages.photoLike(60, 40, alpha: false)
        let filled = try CanvasFillProcessor(width: 90, height: 80, fill: .blur)
            .process(TestImages.image(raster, hasAlpha: false))
        let expected = try await PythonReference.image(
            """
            from thumbor.filters.blur import apply_blur
            data = apply_blur('RGBA', im.tobytes(), im.size, 50)
            canvas = Image.frombytes('RGBA', im.size, data).resize((90, 80), Image.LANCZOS)
            canvas.paste(im, (15, 20))
            out = canvas
            """, raster, interpreter: Self.python)
        #expect(filled.raster.width == 90 && filled.raster.height == 80)
        #expect(
            PythonReference.psnr(filled.raster, expected) >= 30, "\(PythonReference.psnr(filled.raster, expected)) dB")
        #expect(filled.raster[45, 40] == raster[30, 20], "the image is pasted as it is")
    }

    @Test func sidesKeptAndLimitsChecked() throws {
        let image = TestImages.image(try TestImages.photoLike(10, 8, alpha: false), hasAlpha: false)
        let filled = try CanvasFillProcessor(width: nil, height: 20, fill: .colour(RGBA(1, 2, 3))).process(image)
        #expect(filled.raster.width == 10 && filled.raster.height == 20 && filled.raster[0, 0] == RGBA(1, 2, 3))
        #expect(
            try CanvasFillProcessor(width: nil, height: 20, fill: .blur, fillsTransparency: true).identifier
                == "fill(-x20,blur,merge)")
        var huge = try CanvasFillProcessor(width: 100_000, height: 100_000, fill: .average)
        huge.limits = DecodeLimits(maxPixels: 1_000_000)
        #expect(throws: ImagoError.self) { try huge.process(image) }
        #expect(throws: ImagoError.self) { try CanvasFillProcessor(width: 0, height: 1, fill: .average) }
    }
}
