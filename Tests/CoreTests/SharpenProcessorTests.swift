import Testing

@testable import ImagoCore

/// The unsharp mask against Pillow's `UnsharpMask(radius: sigma, percent: 150, threshold: 3)`, at most 1 level
/// apart on opaque images.
@Suite struct SharpenProcessorTests {
    @Test(arguments: [0.3, 1, 2.5, 10])
    func matchesPillowUnsharpMask(sigma: Double) async throws {
        let raster = try TestImages.photoLike(57, 41, alpha: false)
        let sharpened = try SharpenProcessor(sigma: sigma).process(TestImages.image(raster, hasAlpha: false))
        let expected = try await PythonReference.image(
            "out = im.convert('RGB').filter(ImageFilter.UnsharpMask(float(args[0]), 150, 3))", raster,
            arguments: ["\(sigma)"])
        let worst = PythonReference.maxDifference(sharpened.raster, expected)
        #expect(worst <= 1, "sigma \(sigma): \(worst) levels off")
        #expect(sharpened.raster != raster)
    }

    @Test func keepsAlphaAndFlatAreas() throws {
        let raster = try TestImages.raster(30, 10) { x, _ in x < 15 ? RGBA(40, 40, 40, 200) : RGBA(200, 200, 200, 90) }
        let sharpened = try SharpenProcessor(sigma: 1).process(TestImages.image(raster)).raster
        #expect(sharpened[2, 5] == RGBA(40, 40, 40, 200), "a flat area is left alone")
        #expect(sharpened[14, 5].a == 200 && sharpened[15, 5].a == 90, "alpha is kept")
        #expect(sharpened[14, 5].r < 40 && sharpened[15, 5].r > 200, "the edge is steeper")
    }

    @Test func sigmaOutOfRangeIsATypedError() {
        for sigma in [0.1, 10.5, .nan] {
            let error = #expect(throws: ImagoError.self, "\(sigma)") { try SharpenProcessor(sigma: sigma) }
            #expect(error?.kind == .processingFailed)
        }
        #expect((try? SharpenProcessor(sigma: 1))?.identifier == "sharpen(1.0)")
    }
}
