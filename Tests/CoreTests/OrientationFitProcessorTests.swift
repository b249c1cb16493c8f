import Testing

@testable import ImagoCore

/// Resizes chosen from the image: imgproxy's `auto` (fill when the orientations agree, square counting as
/// landscape, else fit), thumbor's `adaptive-fit-in` (the box turned for an image of the other orientation) and
/// `full-fit-in` (cover without cropping); each the same pixels as the `ResizeProcessor` it picks.
@Suite struct OrientationFitProcessorTests {
    @Test(arguments: [
        (OrientationFitProcessor.Rule.auto, 60, 40, 30, 20, 30, 20), (.auto, 40, 60, 30, 20, 13, 20),
        (.auto, 40, 40, 30, 20, 30, 20), (.auto, 40, 60, 20, 30, 20, 30), (.adaptive, 40, 60, 30, 20, 20, 30),
        (.adaptive, 60, 40, 30, 20, 30, 20), (.adaptive, 40, 40, 30, 20, 20, 20), (.outside, 60, 40, 30, 30, 45, 30),
        (.outside, 40, 60, 30, 30, 30, 45), (.outside, 60, 40, 20, 10, 20, 13),
    ])
    func picksTheResizeFromTheImage(
        rule: OrientationFitProcessor.Rule, width: Int, height: Int, targetWidth: Int, targetHeight: Int, w: Int,
        h: Int
    ) throws {
        let image = TestImages.image(try TestImages.photoLike(width, height, alpha: false))
        let processor = OrientationFitProcessor(rule: rule, width: targetWidth, height: targetHeight, upscale: true)
        let result = try processor.process(image)
        #expect(
            result.width == w && result.height == h, "\(rule) \(width)x\(height) into \(targetWidth)x\(targetHeight)")
        let chosen = processor.resize(forWidth: width, height: height)
        #expect(result.raster == (try chosen.process(image)).raster)
    }

    @Test func identifierNamesTheRuleAndGravity() {
        #expect(OrientationFitProcessor(width: 30, height: 20).identifier == "resize(30x20,auto,noupscale,lanczos3)")
        #expect(
            OrientationFitProcessor(width: 30, height: 20, upscale: true, gravity: .smart).identifier
                == "resize(30x20,auto,upscale,lanczos3,g=sm)")
        #expect(
            OrientationFitProcessor(rule: .outside, width: 30, height: 20).identifier
                == "resize(30x20,outside,noupscale,lanczos3)")
    }
}
