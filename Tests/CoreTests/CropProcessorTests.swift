import Testing

@testable import ImagoCore

/// Crops of pixels and fractions, clamped to the image, against Pillow's `crop` of the clamped box; aspect crops
/// placed by gravity.
@Suite struct CropProcessorTests {
    static let raster = Result { try TestImages.photoLike(50, 40, alpha: true) }

    /// (region, the box Pillow crops: left, top, right, bottom).
    static let cases: [(CropRegion, (Int, Int, Int, Int))] = [
        (CropRegion(x: .pixels(5), y: .pixels(7), width: .pixels(20), height: .pixels(11)), (5, 7, 25, 18)),
        (
            CropRegion(x: .fraction(0.1), y: .fraction(0.25), width: .fraction(0.5), height: .fraction(0.5)),
            (5, 10, 30, 30)
        ),
        (CropRegion(x: .pixels(-10), y: .pixels(-5), width: .pixels(30), height: .pixels(25)), (0, 0, 20, 20)),
        (CropRegion(x: .pixels(40), y: .fraction(0.5), width: .pixels(30), height: .fraction(1.0)), (40, 20, 50, 40)),
        (
            CropRegion(x: .fraction(0.0), y: .fraction(0.0), width: .fraction(1.0), height: .fraction(1.0)),
            (0, 0, 50, 40)
        ),
    ]

    @Test(arguments: cases.indices)
    func matchesPillowCropOfTheClampedBox(index: Int) async throws {
        let (region, box) = Self.cases[index]
        let raster = try Self.raster.get()
        let cropped = try CropProcessor(region: region).process(TestImages.image(raster))
        let expected = try await PythonReference.image(
            "out = im.crop(tuple(int(v) for v in args))", raster,
            arguments: [box.0, box.1, box.2, box.3].map(String.init))
        #expect(cropped.raster == expected, "\(region)")
    }

    @Test func aRegionEntirelyOutsideOrEmptyIsATypedError() throws {
        let image = TestImages.image(try Self.raster.get())
        let regions = [
            CropRegion(x: .pixels(50), y: .pixels(0), width: .pixels(10), height: .pixels(10)),
            CropRegion(x: .pixels(-20), y: .pixels(0), width: .pixels(20), height: .pixels(10)),
            CropRegion(x: .fraction(0.5), y: .fraction(0.5), width: .fraction(0), height: .fraction(0.5)),
            CropRegion(x: .fraction(.nan), y: .pixels(0), width: .pixels(1), height: .pixels(1)),
            CropRegion(x: .pixels(Int.max), y: .pixels(0), width: .pixels(Int.max), height: .pixels(1)),
            CropRegion(x: .fraction(1e300), y: .pixels(0), width: .pixels(1), height: .pixels(1)),
        ]
        for region in regions {
            let error = #expect(throws: ImagoError.self, "\(region)") {
                try CropProcessor(region: region).process(image)
            }
            #expect(error?.kind == .processingFailed)
        }
    }

    @Test func identifiersKeepTheOldFormAndTellPixelsFromFractions() {
        #expect(CropProcessor(x: 1, y: 2, width: 3, height: 4).identifier == "crop(1,2,3x4)")
        let pixels = CropProcessor(
            region: CropRegion(x: .pixels(1), y: .pixels(0), width: .pixels(1), height: .pixels(1)))
        let fractions = CropProcessor(
            region: CropRegion(x: .fraction(1), y: .pixels(0), width: .pixels(1), height: .pixels(1)))
        #expect(pixels.identifier == "crop(1,0,1x1,clamp)")
        #expect(fractions.identifier == "crop(1.0,0,1x1,clamp)")
        #expect(CropProcessor(aspectWidth: 16, aspectHeight: 9, gravity: .smart).identifier == "crop(16:9,g=sm)")
    }

    @Test(arguments: [
        (Gravity.center, 5, 0), (.west, 0, 0), (.east, 10, 0), (.northEast, 10, 0), (.focusPoint(x: 0.3, y: 0.5), 0, 0),
        (.focusPoint(x: 0.5, y: 0.5), 5, 0), (.focusPoint(x: 0.46, y: 0.5), 3, 0),
    ])
    func aspectCropIsPlacedByGravity(gravity: Gravity, x: Int, y: Int) throws {
        let raster = try Self.raster.get()
        let crop = CropProcessor(aspectWidth: 1, aspectHeight: 1, gravity: gravity)
        let rect = try crop.rectangle(in: raster)
        #expect(rect.width == 40 && rect.height == 40)
        #expect(rect.x == x && rect.y == y, "\(gravity): \(rect)")
        let cropped = try crop.process(TestImages.image(raster))
        #expect(cropped.raster == (try raster.cropped(x: x, y: y, width: 40, height: 40)))
        // A wide aspect on the landscape image: full width, placed vertically (40 - 25 = 15 rows free).
        let wide = try CropProcessor(aspectWidth: 2, aspectHeight: 1, gravity: gravity).rectangle(in: raster)
        #expect(wide.width == 50 && wide.height == 25 && wide.x == 0)
        let expectedY: Int =
            switch gravity {
            case .northEast: 0
            case .focusPoint: 8  // 0.5 · 40 − 12.5 = 7.5, rounded
            default: 8  // 7.5, rounded
            }
        #expect(wide.y == expectedY, "\(gravity): \(wide)")
    }

    @Test func valuesParseFromTheURLGrammar() {
        #expect(CropValue("10") == .pixels(10))
        #expect(CropValue("-4") == .pixels(-4))
        #expect(CropValue("0.5") == .fraction(0.5))
        #expect(CropValue("1.0") == .fraction(1))
        for bad in ["", "x", "1.2.3", "nan.", "1e5", "inf.0"] { #expect(CropValue(bad) == nil, "\(bad)") }
    }
}
