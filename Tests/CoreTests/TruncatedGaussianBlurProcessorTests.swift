import Testing

@testable import ImagoCore

/// thumbor's `blur(radius[, sigma])` against its own `apply_blur` (two passes of its C convolution) on the same
/// pixels, opaque and with alpha.
@Suite struct TruncatedGaussianBlurProcessorTests {
    @Test(arguments: [(4, 2.0, false), (10, nil, false), (10, nil, true), (3, 7.5, true)] as [(Int, Double?, Bool)])
    func equalsThumbor(radius: Int, sigma: Double?, alpha: Bool) async throws {
        let raster = try TestImages.photoLike(37, 29, alpha: alpha)
        let blurred = try TruncatedGaussianBlurProcessor(radius: radius, sigma: sigma)
            .process(TestImages.image(raster, hasAlpha: alpha)).raster
        let mode = alpha ? "RGBA" : "RGB"
        let expected = try await PythonReference.image(
            """
            from thumbor.filters.blur import apply_blur
            data = apply_blur('\(mode)', im.convert('\(mode)').tobytes(), im.size, int(args[0]), float(args[1]))
            out = Image.frombytes('\(mode)', im.size, data)
            """, raster, arguments: ["\(radius)", "\(sigma ?? 0)"], interpreter: ColourProcessorTests.thumborPython)
        // Python's e ** x and Swift's exp differ in the last bit now and then: a level at most, rarely.
        #expect(PythonReference.maxDifference(blurred, expected) <= 1)
        #expect(PythonReference.psnr(blurred, expected) > 50)
    }

    @Test func theRadiusIsCutAt150AfterGivingItsSigma() throws {
        let wide = try TruncatedGaussianBlurProcessor(radius: 500)
        #expect(wide.radius == 150 && wide.sigma == 500)
        #expect(wide.identifier == "gaussian-blur(150,500.0)")
        #expect(throws: ImagoError.self) { try TruncatedGaussianBlurProcessor(radius: 0) }
        // 3000 × 1200 × 301 taps is over the work limit: refused before the first pass.
        let large = TestImages.image(try Raster(width: 3000, height: 1200, fill: RGBA(1, 2, 3)), hasAlpha: false)
        let error = #expect(throws: ImagoError.self) { try wide.process(large) }
        #expect(error?.kind == .limitExceeded)
        #expect(throws: ImagoError.self) { try TruncatedGaussianBlurProcessor(radius: 3, sigma: 0) }
    }
}
