import Testing

@testable import ImagoCore

/// thumbor's `sharpen(amount, radius, luminance_only)` against its own C filter on the same pixels.
@Suite struct WaveletSharpenProcessorTests {
    func thumbor(_ raster: Raster, amount: Double, radius: Double, luminanceOnly: Bool, mode: String) async throws
        -> Raster
    {
        try await PythonReference.image(
            """
            from thumbor.ext.filters import _sharpen
            data = im.convert('\(mode)').tobytes()
            data = _sharpen.apply('\(mode)', im.size[0], im.size[1], \(amount), \(radius), \(luminanceOnly ? 1 : 0), data)
            out = Image.frombytes('\(mode)', im.size, data)
            """, raster, interpreter: ColourProcessorTests.thumborPython)
    }

    @Test(arguments: [(4.0, 2.0, true), (1.5, 1.0, true), (2.0, 0.0, false), (0.8, 3.5, false)])
    func equalsThumbor(amount: Double, radius: Double, luminanceOnly: Bool) async throws {
        // Larger than 2 × 16 pixels, so thumbor's edge mirroring stays inside the image as ours does.
        let raster = try TestImages.photoLike(61, 47, alpha: false)
        let sharpened = try WaveletSharpenProcessor(amount: amount, radius: radius, luminanceOnly: luminanceOnly)
            .process(TestImages.image(raster, hasAlpha: false)).raster
        let expected = try await thumbor(
            raster, amount: amount, radius: radius, luminanceOnly: luminanceOnly, mode: "RGB")
        // Single-precision sums in the same order: equal but for a level where a sum lands on a whole number.
        #expect(PythonReference.maxDifference(sharpened, expected) <= 1)
        #expect(PythonReference.psnr(sharpened, expected) > 50)
        #expect(PythonReference.psnr(sharpened, raster) < 45, "the image is sharpened")
    }

    @Test func theAmountMatters() throws {
        let image = TestImages.image(try TestImages.photoLike(40, 40, alpha: false), hasAlpha: false)
        let mild = try WaveletSharpenProcessor(amount: 0.5, radius: 1, luminanceOnly: true).process(image).raster
        let strong = try WaveletSharpenProcessor(amount: 4, radius: 1, luminanceOnly: true).process(image).raster
        #expect(PythonReference.psnr(mild, image.raster) > PythonReference.psnr(strong, image.raster) + 6)
        #expect(try WaveletSharpenProcessor(amount: 0, radius: 1, luminanceOnly: true).process(image) == image)
    }

    @Test func keepsAlphaAndHandlesImagesSmallerThanTheWidestTap() throws {
        let raster = try TestImages.photoLike(5, 3, alpha: true)
        let sharpened = try WaveletSharpenProcessor(amount: 2, radius: 1, luminanceOnly: false)
            .process(TestImages.image(raster)).raster
        #expect(
            zip(sharpened.pixels, raster.pixels).enumerated().allSatisfy {
                $0.offset % 4 != 3 || $0.element.0 == $0.element.1
            })
        let one = try TestImages.raster(1, 1) { _, _ in RGBA(10, 20, 30) }
        #expect(
            try WaveletSharpenProcessor(amount: 2, radius: 1, luminanceOnly: false).process(TestImages.image(one))
                .raster[0, 0] == RGBA(10, 20, 30))
        #expect(
            try WaveletSharpenProcessor(amount: 4, radius: 2, luminanceOnly: true).identifier
                == "wavelet-sharpen(4.0,2.0,luma)")
        #expect(throws: ImagoError.self) {
            try WaveletSharpenProcessor(amount: .infinity, radius: 1, luminanceOnly: false)
        }
    }
}
