import Testing

@testable import ImagoCore

/// The colour processors that reproduce thumbor's filters (`saturation`, `rgb`, `colorize`, `equalize`, `noise`,
/// `curve`, `convolution`), each against thumbor's own C filter (`thumbor.ext.filters`, in the virtual environment
/// Scripts/setup.sh makes) run on the same pixels: equal bytes, or within a level where thumbor's arithmetic rounds
/// in another order.
@Suite struct ThumborColourFilterTests {
    func thumbor(_ module: String, _ call: String, _ raster: Raster, mode: String = "RGBA") async throws -> Raster {
        try await PythonReference.image(
            """
            from thumbor.ext.filters import \(module)
            data = im.convert('\(mode)').tobytes()
            out = Image.frombytes('\(mode)', im.size, \(call))
            """, raster, interpreter: ColourProcessorTests.thumborPython)
    }

    @Test(arguments: [0.0, 0.5, 1.7, -1.0])
    func saturationEqualsThumbor(factor: Double) async throws {
        let raster = try TestImages.photoLike(33, 21, alpha: true)
        let saturated = try SaturationProcessor(factor: factor).process(TestImages.image(raster)).raster
        let expected = try await thumbor("_saturation", "_saturation.apply('RGBA', \(factor), data)", raster)
        #expect(PythonReference.maxDifference(saturated, expected) == 0)
        #expect(try SaturationProcessor(factor: 1.5).identifier == "saturation(1.5)")
        #expect(throws: ImagoError.self) { try SaturationProcessor(factor: .nan) }
    }

    @Test func channelShiftEqualsThumborsRGB() async throws {
        let raster = try TestImages.photoLike(29, 19, alpha: false)
        let shifted = try ChannelShiftProcessor(red: 30, green: -45, blue: 100).process(TestImages.image(raster))
        let expected = try await thumbor("_rgb", "_rgb.apply('RGBA', 30, -45, 100, data)", raster)
        #expect(PythonReference.maxDifference(shifted.raster, expected) == 0)
        #expect(try ChannelShiftProcessor(red: 1, green: 2, blue: 3).identifier == "rgb(1,2,3)")
        #expect(throws: ImagoError.self) { try ChannelShiftProcessor(red: 101, green: 0, blue: 0) }
    }

    @Test func colorizeEqualsThumbor() async throws {
        let raster = try TestImages.photoLike(29, 19, alpha: true)
        let colorized = try ColorizeProcessor(
            redPercent: 40, greenPercent: 0, bluePercent: 100, colour: RGBA(255, 128, 7)
        ).process(TestImages.image(raster))
        let expected = try await thumbor("_colorize", "_colorize.apply('RGBA', 40, 0, 100, 255, 128, 7, data)", raster)
        #expect(PythonReference.maxDifference(colorized.raster, expected) == 0)
    }

    @Test func equalizeEqualsThumborIncludingItsLowestLevelRule() async throws {
        // Channels whose darkest level differs: only the channel(s) at the overall darkest level get their lowest.
        let raster = try TestImages.photoLike(41, 27, alpha: false)
        let equalized = try EqualizeProcessor().process(TestImages.image(raster)).raster
        let expected = try await thumbor("_equalize", "_equalize.apply('RGBA', data)", raster)
        #expect(PythonReference.maxDifference(equalized, expected) == 0)
        // A flat channel (every pixel one level) becomes 0, as thumbor's x86-64 build gives.
        let flat = try TestImages.raster(8, 4) { x, _ in RGBA(UInt8(x * 20), 77, 77) }
        let flatExpected = try await thumbor("_equalize", "_equalize.apply('RGBA', data)", flat)
        #expect(
            PythonReference.maxDifference(try EqualizeProcessor().process(TestImages.image(flat)).raster, flatExpected)
                == 0)
    }

    @Test(arguments: [(37, 5), (1, 9), (200, 123_456)])
    func seededNoiseEqualsThumbor(amount: Int, seed: Int) async throws {
        let raster = try TestImages.photoLike(23, 17, alpha: false)
        let noisy = try NoiseProcessor(amount: amount, seed: UInt32(seed)).process(TestImages.image(raster)).raster
        let expected = try await thumbor("_noise", "_noise.apply('RGBA', \(amount), data, \(seed))", raster)
        #expect(PythonReference.maxDifference(noisy, expected) == 0)
    }

    @Test func noiseIsTheSameEveryTimeAndForEveryFrame() throws {
        let raster = try TestImages.photoLike(16, 16, alpha: false)
        let frame = ImageFrame(raster: raster, duration: 0.1)
        let animation = DecodedImage(frames: [frame, frame], format: .gif, hasAlpha: false)
        let noisy = try NoiseProcessor(amount: 40).process(animation)
        #expect(noisy.frames[0].raster.pixels == noisy.frames[1].raster.pixels)
        #expect(noisy.frames[0].raster.pixels == (try NoiseProcessor(amount: 40).process(animation)).raster.pixels)
        #expect(noisy.raster.pixels != raster.pixels)
    }

    @Test func glibcRandomMatchesTheCLibrary() async throws {
        var random = GlibcRandom(seed: 5)
        let ours = (0..<5).map { _ in random.next() }
        let output = try await PythonReference.run(
            "import ctypes; libc = ctypes.CDLL(None); libc.srandom(5); print(' '.join(str(libc.random()) for _ in range(5)))"
        )
        let theirs = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap {
            UInt32($0)
        }
        #expect(ours == theirs)
    }

    @Test func curveEqualsThumbor() async throws {
        let raster = try TestImages.photoLike(31, 23, alpha: false)
        let all: CurveProcessor.Curve = [(0, 0), (40, 59), (255, 255)]
        let red: CurveProcessor.Curve = [(32, 59), (64, 80), (92, 111), (128, 153), (192, 214), (255, 212)]
        let green: CurveProcessor.Curve = [(0, 0), (255, 255)]
        let blue: CurveProcessor.Curve = [(40, 46), (128, 127), (224, 199)]
        let curved = try CurveProcessor(all: all, red: red, green: green, blue: blue).process(TestImages.image(raster))
        func text(_ curve: CurveProcessor.Curve) -> String { "(" + curve.map { "(\($0.x),\($0.y))," }.joined() + ")" }
        let expected = try await thumbor(
            "_curve", "_curve.apply('RGBA', data, \(text(all)), \(text(red)), \(text(green)), \(text(blue)))", raster)
        #expect(PythonReference.maxDifference(curved.raster, expected) <= 1)
        #expect(throws: ImagoError.self) {
            try CurveProcessor(all: [(10, 0), (10, 5)], red: green, green: green, blue: green)
        }
        #expect(throws: ImagoError.self) { try CurveProcessor(all: [], red: green, green: green, blue: green) }
    }

    @Test(arguments: [true, false])
    func convolutionEqualsThumbor(alpha: Bool) async throws {
        let raster = try TestImages.photoLike(27, 19, alpha: alpha)
        let kernel: [Double] = [-1, -1, -1, -1, 8, -1, -1, -1, -1, 1, 2, 1, 2, 4, 2]
        let convolved = try ConvolutionProcessor(kernel: kernel, columns: 5, normalize: true)
            .process(TestImages.image(raster, hasAlpha: alpha))
        let mode = alpha ? "RGBA" : "RGB"
        let expected = try await thumbor(
            "_convolution",
            "_convolution.apply('\(mode)', data, im.size[0], im.size[1], (\(kernel.map { "'\($0)'," }.joined())), 5, True)",
            raster, mode: mode)
        #expect(PythonReference.maxDifference(convolved.raster, expected) == 0)
        #expect(throws: ImagoError.self) { try ConvolutionProcessor(kernel: [1, 2], columns: 2, normalize: true) }
        #expect(throws: ImagoError.self) {
            try ConvolutionProcessor(kernel: Array(repeating: 1, count: 169), columns: 13, normalize: true)
        }
    }
}
