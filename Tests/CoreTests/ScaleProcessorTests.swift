import Testing

@testable import ImagoCore

/// `ScaleProcessor` (thumbor's `proportion`, imgproxy's `zoom` without a size) and `StretchProcessor` with a side
/// of 0 (imgproxy's `force` keeping that side).
@Suite struct ScaleProcessorTests {
    @Test func proportionTruncatesAsThumborAndIsNearPillowsLanczos() async throws {
        let raster = try TestImages.photoLike(101, 67, alpha: false)
        let scaled = try ScaleProcessor(x: 0.37, y: 0.37, rounding: .down).process(TestImages.image(raster)).raster
        #expect(scaled.width == 37 && scaled.height == 24)  // int(101 × 0.37), int(67 × 0.37)
        let expected = try await PythonReference.image(
            "out = im.resize((int(im.size[0] * 0.37), int(im.size[1] * 0.37)), Image.LANCZOS)", raster,
            interpreter: ColourProcessorTests.thumborPython)
        #expect(PythonReference.psnr(scaled, expected) >= 30, "\(PythonReference.psnr(scaled, expected)) dB")
    }

    @Test func zoomRoundsToNearestAndMayDifferPerAxis() throws {
        let image = TestImages.image(try TestImages.photoLike(10, 10, alpha: false))
        let scaled = try ScaleProcessor(x: 1.55, y: 0.5).process(image)
        #expect(scaled.raster.width == 16 && scaled.raster.height == 5)
        #expect(try ScaleProcessor(x: 0.01, y: 1).process(image) == image, "a side under 1 px leaves it")
        #expect(try ScaleProcessor(x: 2, y: 2).identifier == "scale(2.0x2.0,nearest,catmullRom)")
        #expect(throws: ImagoError.self) { try ScaleProcessor(x: 0, y: 1) }
    }

    @Test func stretchWithASideOf0KeepsThatSide() throws {
        let image = TestImages.image(try TestImages.photoLike(400, 150, alpha: false))
        // imgproxy rs:force:0:300 with enlarge: 400×300; without: both sides scaled until it fits (200×150).
        #expect(try StretchProcessor(width: 0, height: 300, upscale: true).process(image).raster.width == 400)
        #expect(try StretchProcessor(width: 0, height: 300, upscale: true).process(image).raster.height == 300)
        let kept = try StretchProcessor(width: 0, height: 300).process(image).raster
        #expect(kept.width == 200 && kept.height == 150)
        let narrower = try StretchProcessor(width: 100, height: 0).process(image).raster
        #expect(narrower.width == 100 && narrower.height == 150)
        #expect(throws: ImagoError.self) { try StretchProcessor(width: 0, height: 0).process(image) }
    }
}
