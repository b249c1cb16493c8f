import Foundation
import Testing

@testable import ImagoCore

@Suite struct ResizeProcessorTests {
    /// A `width` × `height` image whose pixel (x, y) is given by `color`.
    static func image(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGBA) throws -> DecodedImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                pixels += [c.r, c.g, c.b, c.a]
            }
        }
        return DecodedImage(raster: try Raster(width: width, height: height, pixels: pixels), format: .png)
    }

    @Test func fitKeepsTheAspectRatio() throws {
        let image = try Self.image(400, 200) { _, _ in RGBA(10, 20, 30) }
        let resized = try ResizeProcessor(width: 100, height: 100).process(image)
        #expect(resized.width == 100 && resized.height == 50)
        #expect(resized.raster[50, 25] == RGBA(10, 20, 30))
    }

    @Test func fillCropsToTheExactTarget() throws {
        // Left quarter red, the rest blue: filling a square keeps the centre, so no red survives.
        let image = try Self.image(400, 200) { x, _ in x < 100 ? RGBA(255, 0, 0) : RGBA(0, 0, 255) }
        let resized = try ResizeProcessor(width: 50, height: 50, mode: .fill).process(image)
        #expect(resized.width == 50 && resized.height == 50)
        #expect(resized.raster[0, 25].b >= 250)
        #expect(resized.raster[49, 25] == RGBA(0, 0, 255))
    }

    @Test func noUpscaleByDefault() throws {
        let image = try Self.image(10, 20) { _, _ in RGBA(1, 2, 3) }
        #expect(try ResizeProcessor(width: 100, height: 100).process(image).width == 10)
        let filled = try ResizeProcessor(width: 100, height: 50, mode: .fill).process(image)
        #expect(filled.width == 10 && filled.height == 5)
        let enlarged = try ResizeProcessor(width: 40, height: 40, upscale: true).process(image)
        #expect(enlarged.width == 20 && enlarged.height == 40)
        #expect(enlarged.raster[10, 20] == RGBA(1, 2, 3))
    }

    @Test func boxDownscaleAveragesAreas() throws {
        // A 1-pixel checkerboard of black and white averages to mid grey.
        let image = try Self.image(8, 8) { x, y in (x + y) % 2 == 0 ? RGBA(0, 0, 0) : RGBA(255, 255, 255) }
        for filter in ResizeFilter.allCases where filter != .lanczos3 {
            let resized = try ResizeProcessor(width: 2, height: 2, filter: filter).process(image)
            let pixel = resized.raster[1, 1]
            #expect(abs(Int(pixel.r) - 128) <= 3, "filter \(filter) gave \(pixel)")
        }
    }

    @Test func premultipliedEdgesDoNotBleedDark() throws {
        // Opaque red on the left, fully transparent black on the right: no visible pixel may turn dark.
        let image = try Self.image(64, 8) { x, _ in x < 31 ? RGBA(255, 0, 0, 255) : RGBA(0, 0, 0, 0) }
        for filter in ResizeFilter.allCases {
            let resized = try ResizeProcessor(width: 10, height: 10, filter: filter).process(image)
            var sawPartial = false
            for x in 0..<resized.width {
                let pixel = resized.raster[x, 0]
                if pixel.a > 0 { #expect(pixel.r >= 250, "filter \(filter) at \(x): \(pixel)") }
                if pixel.a > 0 && pixel.a < 255 { sawPartial = true }
            }
            #expect(sawPartial, "filter \(filter) kept a hard edge")
        }
    }

    @Test(arguments: ResizeFilter.allCases)
    func uniformColourSurvivesUnevenReductions(filter: ResizeFilter) throws {
        let colour = RGBA(90, 160, 30, 128)
        let image = DecodedImage(raster: try Raster(width: 1001, height: 333, fill: colour), format: .png)
        for target in [(97, 97), (500, 500), (7, 3)] {
            let resized = try ResizeProcessor(width: target.0, height: target.1, filter: filter).process(image)
            let pixels = resized.raster.pixels
            for index in stride(from: 0, to: pixels.count, by: 4) {
                let pixel = RGBA(pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
                #expect(pixel == colour, "\(filter) to \(target) gave \(pixel) at \(index / 4)")
                if pixel != colour { return }
            }
        }
    }

    @Test func resizesEveryFrame() throws {
        let frames = try [RGBA(255, 0, 0), RGBA(0, 255, 0)].map {
            ImageFrame(raster: try Raster(width: 20, height: 10, fill: $0), duration: 0.1)
        }
        let animation = DecodedImage(frames: frames, loopCount: 0, format: .gif, hasAlpha: false)
        let resized = try ResizeProcessor(width: 10, height: 10).process(animation)
        #expect(resized.frames.count == 2)
        #expect(resized.frames.map { $0.raster.width } == [10, 10])
        #expect(resized.frames[1].raster[3, 3] == RGBA(0, 255, 0))
        #expect(resized.durations == [0.1, 0.1])
    }

    @Test func identifiersNameEveryParameter() {
        let a = ResizeProcessor(width: 10, height: 20)
        #expect(a.identifier == "resize(10x20,fit,noupscale,lanczos3)")
        let others = [
            ResizeProcessor(width: 10, height: 21), ResizeProcessor(width: 10, height: 20, mode: .fill),
            ResizeProcessor(width: 10, height: 20, upscale: true), ResizeProcessor(width: 10, height: 20, filter: .box),
        ]
        #expect(Set(others.map(\.identifier) + [a.identifier]).count == 5)
        #expect(CropProcessor(x: 1, y: 2, width: 3, height: 4).identifier == "crop(1,2,3x4)")
    }

    @Test func emptyTargetFails() throws {
        let image = try Self.image(4, 4) { _, _ in RGBA(0, 0, 0) }
        #expect(throws: ImagoError.self) { try ResizeProcessor(width: 0, height: 4).process(image) }
    }

    @Test func upscaleBeyondThePixelLimitIsRefusedBeforeAllocating() throws {
        // 65535x65535 RGBA would be 17 GB: the output size must be checked against the limits first.
        let image = try Self.image(3, 3) { _, _ in RGBA(0, 0, 0) }
        for mode in [ContentMode.fit, .fill] {
            let resize = ResizeProcessor(width: 65_535, height: 65_535, mode: mode, upscale: true)
            let error = #expect(throws: ImagoError.self) { try resize.process(image) }
            #expect(error?.kind == .limitExceeded)
        }
    }

    @Test func shrinkingAnImageOverTheLimitsIsNeverRefused() throws {
        // Limits raised at decoding let a larger image in: making it smaller must still work.
        let image = try Self.image(20, 10) { _, _ in RGBA(9, 9, 9) }
        var resize = ResizeProcessor(width: 15, height: 15)
        resize.limits = DecodeLimits(maxPixels: 100, maxTotalPixels: 100)
        let resized = try resize.process(image)
        #expect((resized.width, resized.height) == (15, 8))
    }

    @Test func upscaleOfAnAnimationIsBoundByTheTotalPixelLimit() throws {
        let frames = try (0..<3).map { _ in ImageFrame(raster: try Raster(width: 2, height: 2, fill: RGBA(1, 2, 3))) }
        let animation = DecodedImage(frames: frames, loopCount: 0, format: .gif, hasAlpha: false)
        var resize = ResizeProcessor(width: 100, height: 100, upscale: true)
        resize.limits = DecodeLimits(maxPixels: 10_000, maxTotalPixels: 20_000)
        let error = #expect(throws: ImagoError.self) { try resize.process(animation) }
        #expect(error?.kind == .limitExceeded)
        resize.limits.maxTotalPixels = 30_000
        #expect(try resize.process(animation).frames.count == 3)
    }
}

@Suite struct CropAndOrientationTests {
    /// 2x3 image whose pixel (x, y) has red = 10x + 1 and green = 10y + 1, so each pixel names its origin.
    static let tagged = try! ResizeProcessorTests.image(2, 3) { x, y in RGBA(UInt8(10 * x + 1), UInt8(10 * y + 1), 0) }

    static func origin(_ pixel: RGBA) -> (Int, Int) { ((Int(pixel.r) - 1) / 10, (Int(pixel.g) - 1) / 10) }

    @Test func cropTakesTheRectangle() throws {
        let cropped = try CropProcessor(x: 1, y: 1, width: 1, height: 2).process(Self.tagged)
        #expect(cropped.width == 1 && cropped.height == 2)
        #expect(Self.origin(cropped.raster[0, 0]) == (1, 1))
        #expect(Self.origin(cropped.raster[0, 1]) == (1, 2))
        let error = #expect(throws: ImagoError.self) {
            try CropProcessor(x: 1, y: 0, width: 2, height: 1).process(Self.tagged)
        }
        #expect(error?.kind == .processingFailed)
    }

    @Test func orientationSixRotatesClockwise() throws {
        var image = Self.tagged
        image.orientation = .right
        let upright = try OrientationProcessor().process(image)
        #expect(upright.width == 3 && upright.height == 2)
        #expect(upright.orientation == .up)
        // Stored row 0 becomes the rightmost column; stored column 0 becomes the top row.
        #expect(Self.origin(upright.raster[2, 0]) == (0, 0))
        #expect(Self.origin(upright.raster[2, 1]) == (1, 0))
        #expect(Self.origin(upright.raster[0, 0]) == (0, 2))
        #expect(Self.origin(upright.raster[0, 1]) == (1, 2))
    }

    /// Where stored pixel (x, y) of a w × h image lands for each EXIF orientation (the EXIF definition).
    static func expected(_ orientation: ImageOrientation, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch orientation {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (h - 1 - y, x)
        case .rightMirrored: (h - 1 - y, w - 1 - x)
        case .left: (y, w - 1 - x)
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func everyOrientationMovesEveryPixel(orientation: ImageOrientation) throws {
        var image = Self.tagged
        image.orientation = orientation
        let upright = try OrientationProcessor().process(image)
        #expect(upright.orientation == .up)
        #expect(upright.width == (orientation.swapsDimensions ? 3 : 2))
        for y in 0..<3 {
            for x in 0..<2 {
                let (tx, ty) = Self.expected(orientation, x: x, y: y, w: 2, h: 3)
                #expect(Self.origin(upright.raster[tx, ty]) == (x, y))
            }
        }
    }
}
