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
        (.outside, 40, 60, 30, 30, 30, 45), (.outside, 60, 40, 20, 10, 20, 13), (.outside, 60, 40, 10, 30, 45, 30),
        // thumbor's adaptive-full-fit-in: the box turned for an image of the other orientation, then covered
        // (FIT_IN_CROP_DATA[6]: 800×400 into 100x400 is 400×200).
        (.adaptiveOutside, 60, 40, 10, 30, 30, 20), (.adaptiveOutside, 80, 40, 10, 40, 40, 20),
        (.adaptiveOutside, 40, 40, 30, 20, 30, 30),
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

    @Test func theChosenResizeTakesTheAdjustments() throws {
        // thumbor's adaptive-fit-in/1000x1200 with upscale() of 800×533: 1200×799 (the sides truncated); here
        // 80×53 into 100x120, 120×79.5.
        let image = TestImages.image(try TestImages.photoLike(80, 53, alpha: false))
        var processor = OrientationFitProcessor(rule: .adaptive, width: 100, height: 120, upscale: true)
        #expect(try processor.process(image).height == 80)
        processor.adjustments.roundsEnlargedSidesDown = true
        let result = try processor.process(image)
        #expect(result.width == 120 && result.height == 79)
        #expect(processor.resize(forWidth: 80, height: 53).adjustments == processor.adjustments)
        #expect(processor.identifier == "resize(100x120,adaptive,upscale,lanczos3,floorup)")
        // thumbor's full-fit-in/origx800 of 800×533: the box is 800×800, covered by 1201×800.
        var orig = OrientationFitProcessor(rule: .outside, width: 1, height: 80, upscale: true)
        orig.adjustments.usesSourceWidth = true
        let covered = try orig.process(image)
        #expect(covered.width == 121 && covered.height == 80)
        // adaptive-fit-in/90x30 with no_upscale() of a 40×80 portrait: thumbor cuts the box to 40×30 first, then
        // turns it (30×40) and fits: 20×40. Turning first and cutting after would fit 30×80: 30×60.
        let portrait = TestImages.image(try TestImages.photoLike(40, 80, alpha: false))
        var clamped = OrientationFitProcessor(rule: .adaptive, width: 90, height: 30)
        clamped.adjustments.clampsTargetToImage = true
        let fitted = try clamped.process(portrait)
        #expect(fitted.width == 20 && fitted.height == 40)
    }

    @Test func identifierNamesTheRuleAndGravity() {
        #expect(OrientationFitProcessor(width: 30, height: 20).identifier == "resize(30x20,auto,noupscale,lanczos3)")
        #expect(
            OrientationFitProcessor(width: 30, height: 20, upscale: true, gravity: .smart).identifier
                == "resize(30x20,auto,upscale,lanczos3,g=sm)")
        #expect(
            OrientationFitProcessor(rule: .outside, width: 30, height: 20).identifier
                == "resize(30x20,outside,noupscale,lanczos3)")
        #expect(
            OrientationFitProcessor(rule: .adaptiveOutside, width: 30, height: 20).identifier
                == "resize(30x20,adaptive-outside,noupscale,lanczos3)")
    }
}
