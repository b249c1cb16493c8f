import Testing

@testable import ImagoCore

/// imgproxy's `auto` resizing: fill when the image and the target share an orientation (square counts as
/// landscape), fit otherwise; the same pixels as the resize it picks.
@Suite struct OrientationFitProcessorTests {
    @Test(arguments: [
        (60, 40, 30, 20, 30, 20), (40, 60, 30, 20, 13, 20), (40, 40, 30, 20, 30, 20), (40, 60, 20, 30, 20, 30),
    ])
    func picksFillOrFitByOrientation(width: Int, height: Int, targetWidth: Int, targetHeight: Int, w: Int, h: Int)
        throws
    {
        let image = TestImages.image(try TestImages.photoLike(width, height, alpha: false))
        let auto = OrientationFitProcessor(width: targetWidth, height: targetHeight)
        let result = try auto.process(image)
        #expect(result.width == w && result.height == h, "\(width)x\(height) into \(targetWidth)x\(targetHeight)")
        let chosen = (width >= height) == (targetWidth >= targetHeight) ? auto.fill : auto.fit
        #expect(result.raster == (try chosen.process(image)).raster)
    }

    @Test func identifierNamesAutoAndGravity() {
        #expect(OrientationFitProcessor(width: 30, height: 20).identifier == "resize(30x20,auto,noupscale,catmullRom)")
        #expect(
            OrientationFitProcessor(width: 30, height: 20, upscale: true, gravity: .smart).identifier
                == "resize(30x20,auto,upscale,catmullRom,g=sm)")
    }
}
