import Testing

@testable import ImagoCore

/// `CropProcessor(windowWidth:windowHeight:gravity:)`: a window of a size (pixels or fractions) placed by gravity,
/// cut to the image (imgproxy's `crop:W:H:G`).
@Suite struct CropWindowTests {
    @Test(arguments: [
        (Gravity.center, 15, 10), (.northWest, 0, 0), (.southEast, 30, 20), (.east, 30, 10), (.north, 15, 0),
        (.focusPoint(x: 0.9, y: 0.1), 30, 0),
    ])
    func placesTheWindowByGravity(gravity: Gravity, x: Int, y: Int) throws {
        let raster = try TestImages.photoLike(50, 40, alpha: false)
        let crop = CropProcessor(windowWidth: .pixels(20), windowHeight: .fraction(0.5), gravity: gravity)
        let rect = try crop.rectangle(in: raster)
        #expect(rect.width == 20 && rect.height == 20 && rect.x == x && rect.y == y, "\(gravity): \(rect)")
        let cropped = try crop.process(TestImages.image(raster)).raster
        #expect(cropped == (try raster.cropped(x: x, y: y, width: 20, height: 20)))
    }

    @Test func aWindowLargerThanTheImageIsCutToItAndBadSizesAreTypedErrors() throws {
        let raster = try TestImages.photoLike(30, 20, alpha: false)
        let rect = try CropProcessor(windowWidth: .pixels(100), windowHeight: .pixels(10), gravity: .south)
            .rectangle(in: raster)
        #expect(rect.x == 0 && rect.y == 10 && rect.width == 30 && rect.height == 10)
        #expect(throws: ImagoError.self) {
            try CropProcessor(windowWidth: .pixels(0), windowHeight: .pixels(10)).rectangle(in: raster)
        }
        #expect(
            CropProcessor(windowWidth: .pixels(300), windowHeight: .fraction(0.5), gravity: .northEast).identifier
                == "crop(300x0.5,g=ne)")
    }
}
