import Testing

@testable import ImagoCore

/// The Gaussian blur against Pillow's `GaussianBlur` (the same extended-box algorithm): at most 1 level apart on
/// opaque images, and on images with alpha (Pillow blurring in premultiplied `RGBa`) at most 1 level in alpha
/// and 2 in colour where alpha is at least 64 (unpremultiplying a low alpha magnifies a level of rounding).
@Suite struct BlurProcessorTests {
    static let tolerance = 1

    @Test(arguments: [0.3, 0.8, 2, 5, 17.5, 100])
    func opaqueMatchesPillow(sigma: Double) async throws {
        let raster = try TestImages.photoLike(61, 43, alpha: false)
        let blurred = try BlurProcessor(sigma: sigma).process(TestImages.image(raster, hasAlpha: false))
        let expected = try await PythonReference.image(
            "out = im.convert('RGB').filter(ImageFilter.GaussianBlur(float(args[0])))", raster,
            arguments: ["\(sigma)"])
        let worst = PythonReference.maxDifference(blurred.raster, expected)
        #expect(worst <= Self.tolerance, "sigma \(sigma): \(worst) levels off")
    }

    @Test(arguments: [0.5, 3, 40])
    func alphaMatchesPillowPremultiplied(sigma: Double) async throws {
        let raster = try TestImages.photoLike(50, 37, alpha: true)
        let blurred = try BlurProcessor(sigma: sigma).process(TestImages.image(raster)).raster
        let expected = try await PythonReference.image(
            "out = im.convert('RGBa').filter(ImageFilter.GaussianBlur(float(args[0]))).convert('RGBA')", raster,
            arguments: ["\(sigma)"])
        let (ours, theirs) = (blurred.pixels, expected.pixels)
        #expect(ours.count == theirs.count)
        var worst = (colour: 0, alpha: 0)
        for index in 0..<min(ours.count, theirs.count) {
            let difference = abs(Int(ours[index]) - Int(theirs[index]))
            if index % 4 == 3 {
                worst.alpha = max(worst.alpha, difference)
            } else if theirs[index - index % 4 + 3] >= 64 {
                worst.colour = max(worst.colour, difference)
            }
        }
        #expect(worst.alpha <= 1 && worst.colour <= 2, "sigma \(sigma): \(worst)")
    }

    @Test func transparentPixelsLendNoColour() throws {
        // Opaque white next to transparent red: a premultiplied blur keeps the opaque side white.
        let raster = try TestImages.raster(20, 4) { x, _ in x < 10 ? RGBA(255, 0, 0, 0) : RGBA(255, 255, 255) }
        let blurred = try BlurProcessor(sigma: 2).process(TestImages.image(raster)).raster
        #expect(blurred[10, 1].g >= 254 && blurred[10, 1].b >= 254 && blurred[10, 1].a < 255)
    }

    @Test func aLargeSigmaOnAWideImageGivesTheAverage() throws {
        // 8192 px wide, sigma 100: the box passes do not depend on sigma; a two-colour image goes grey.
        let raster = try TestImages.raster(8192, 2) { x, _ in x % 2 == 0 ? RGBA(0, 0, 0) : RGBA(254, 254, 254) }
        let blurred = try BlurProcessor(sigma: 100).process(TestImages.image(raster, hasAlpha: false)).raster
        #expect(blurred.width == 8192)
        #expect(abs(Int(blurred[4000, 1].r) - 127) <= 1)
    }

    @Test func sigmaOutOfRangeIsATypedError() {
        for sigma in [0, 0.29, 100.5, -1, .nan, .infinity] {
            let error = #expect(throws: ImagoError.self, "\(sigma)") { try BlurProcessor(sigma: sigma) }
            #expect(error?.kind == .processingFailed)
        }
        #expect((try? BlurProcessor(sigma: 2.5))?.identifier == "blur(2.5)")
    }

    @Test func blursEveryFrame() throws {
        let frames = try (0..<3).map {
            ImageFrame(raster: try TestImages.photoLike(9, 7, alpha: false, seed: UInt64($0)), duration: 0.05)
        }
        let animation = DecodedImage(frames: frames, format: .gif, hasAlpha: false)
        let blurred = try BlurProcessor(sigma: 1).process(animation)
        #expect(blurred.durations == [0.05, 0.05, 0.05])
        for (index, frame) in blurred.frames.enumerated() {
            #expect(frame.raster == (try frames[index].raster.boxBlurred(sigma: 1, premultiply: false)))
            #expect(frame.raster != frames[index].raster)
        }
    }
}
