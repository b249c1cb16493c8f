import Testing

@testable import ImagoCore

/// `.regions` gravity keeps the detected regions whole, centred on their weighted centre, on the image at any
/// scale; without a region it is smart gravity.
@Suite struct RegionGravityTests {
    static func result(_ regions: [DetectedRegion], in size: PixelSize) -> DetectionResult {
        DetectionResult(detector: "test", imageSize: size, regions: regions)
    }

    static func face(_ x: Int, _ y: Int, _ side: Int, confidence: Double = 0.9) -> DetectedRegion {
        DetectedRegion(kind: .face, x: x, y: y, width: side, height: side, confidence: confidence)
    }

    @Test func aSquareCropOfAWideImageKeepsAFaceAtItsEdge() throws {
        let size = PixelSize(width: 1200, height: 400)
        let gravity = Gravity.regions(Self.result([Self.face(1050, 100, 120)], in: size))
        let origin = gravity.windowOrigin(window: (400, 400), width: 1200, height: 400, raster: nil)
        // Centred on the face (1110) the window would start at 910; the image ends at 1200, so it starts at 800.
        #expect(origin.x == 800 && origin.y == 0)
    }

    @Test func twoFacesStayWholeWhenTheyFit() {
        let size = PixelSize(width: 2000, height: 1000)
        // A large face left and a small one right: the weighted centre is near the large one, the box still whole.
        let faces = [Self.face(500, 300, 300), Self.face(1050, 400, 100)]
        let origin = Gravity.regions(Self.result(faces, in: size)).windowOrigin(
            window: (700, 700), width: 2000, height: 1000, raster: nil)
        #expect(origin.x <= 500 && origin.x + 700 >= 1150, "\(origin)")
        #expect(origin.y <= 300 && origin.y + 700 >= 600, "\(origin)")
    }

    @Test func facesTooFarApartForTheWindowCentreOnTheHeaviest() {
        let size = PixelSize(width: 3000, height: 600)
        let faces = [Self.face(100, 100, 300, confidence: 0.9), Self.face(2600, 200, 100, confidence: 0.9)]
        let origin = Gravity.regions(Self.result(faces, in: size)).windowOrigin(
            window: (600, 600), width: 3000, height: 600, raster: nil)
        // Weighted centre x = (250·90000 + 2650·10000) / 100000 = 490.
        #expect(origin.x == 190)
    }

    @Test func regionsFoundOnAReducedCopyPlaceTheWindowOnTheFullImage() {
        // Detected on a 300x100 copy; cropped on the 1200x400 image.
        let gravity = Gravity.regions(Self.result([Self.face(262, 25, 30)], in: PixelSize(width: 300, height: 100)))
        let origin = gravity.windowOrigin(window: (400, 400), width: 1200, height: 400, raster: nil)
        #expect(origin.x == 800)
    }

    @Test func withoutARegionItIsSmartGravity() throws {
        let raster = try SmartCropTests.scene(800, 300, cx: 700, cy: 150, radius: 60)
        let empty = Gravity.regions(Self.result([], in: PixelSize(width: 800, height: 300)))
        let smart = Gravity.smart.windowOrigin(window: (300, 300), width: 800, height: 300, raster: raster)
        #expect(empty.windowOrigin(window: (300, 300), width: 800, height: 300, raster: raster) == smart)
        #expect(
            empty.looksAtContent
                && !Gravity.regions(Self.result([Self.face(1, 1, 5)], in: .init(width: 9, height: 9))).looksAtContent)
    }

    @Test func aFillResizeAndAnAspectCropKeepTheFace() throws {
        let raster = try Raster(width: 1200, height: 400, fill: RGBA(90, 90, 90))
        let image = DecodedImage(raster: raster, format: .png, hasAlpha: false)
        let gravity = Gravity.regions(Self.result([Self.face(60, 120, 100)], in: PixelSize(width: 1200, height: 400)))
        let crop = CropProcessor(aspectWidth: 1, aspectHeight: 1, gravity: gravity)
        #expect(try crop.rectangle(in: raster) == (0, 0, 400, 400))
        let resize = ResizeProcessor(width: 100, height: 100, mode: .fill, gravity: gravity)
        #expect(resize.plan(width: 1200, height: 400, raster: raster).sourceRect.x == 0)
        #expect(resize.identifier.contains("g=regions(1200x400:face@60,120,100x100)"))
        #expect(try resize.process(image).width == 100)
    }
}

/// Blurring and pixelating regions changes them and nothing else.
@Suite struct RegionHidingTests {
    static func checkerboard() throws -> Raster {
        try TestImages.raster(64, 48) { x, y in (x / 2 + y / 2) % 2 == 0 ? RGBA(255, 255, 255) : RGBA(0, 0, 0) }
    }

    static let regions = DetectionResult(
        detector: "test", imageSize: PixelSize(width: 64, height: 48),
        regions: [DetectedRegion(kind: .face, x: 10, y: 8, width: 20, height: 16, confidence: 1)])

    static func changedPixels(_ a: Raster, _ b: Raster) -> [(Int, Int)] {
        var changed: [(Int, Int)] = []
        for y in 0..<a.height { for x in 0..<a.width where a[x, y] != b[x, y] { changed.append((x, y)) } }
        return changed
    }

    @Test func blurChangesOnlyTheGrownRegion() throws {
        let raster = try Self.checkerboard()
        let image = DecodedImage(raster: raster, format: .png, hasAlpha: false)
        let output = try RegionHidingProcessor(regions: Self.regions, style: .blur(sigma: 3), margin: 0.1).process(
            image)
        let changed = Self.changedPixels(raster, output.raster)
        // Grown by 2 px each side (10% of 20) and 2 px (10% of 16): x 8..<32, y 6..<26.
        #expect(!changed.isEmpty)
        #expect(changed.allSatisfy { (8..<32).contains($0.0) && (6..<26).contains($0.1) })
        // Blurred towards mid-grey inside.
        let middle = output.raster[20, 16]
        #expect((90...170).contains(Int(middle.r)), "\(middle)")
    }

    @Test func pixelationFillsCellsWithTheirAverage() throws {
        let raster = try Self.checkerboard()
        let image = DecodedImage(raster: raster, format: .png, hasAlpha: false)
        let output = try RegionHidingProcessor(regions: Self.regions, style: .pixelate(cell: 4), margin: 0).process(
            image)
        let changed = Self.changedPixels(raster, output.raster)
        #expect(changed.allSatisfy { (10..<30).contains($0.0) && (8..<24).contains($0.1) })
        // A 4x4 cell of a 2-pixel checkerboard averages to grey: every pixel of the region is 128 (rounded).
        for y in 8..<24 { for x in 10..<30 { #expect(output.raster[x, y] == RGBA(128, 128, 128), "\(x),\(y)") } }
        #expect(output.raster[0, 0] == raster[0, 0])
    }

    @Test func regionsFollowTheImageScaleAndKeyTheIdentifier() throws {
        let small = try TestImages.raster(32, 24) { _, _ in RGBA(200, 0, 0) }
        let image = DecodedImage(raster: small, format: .png, hasAlpha: false)
        let processor = try RegionHidingProcessor(regions: Self.regions, style: .pixelate(cell: 2), margin: 0)
        #expect(try processor.process(image).raster == small)  // one colour pixelates to itself
        #expect(processor.identifier == "pixelateregions(2,0.0,64x48:face@10,8,20x16)")
        #expect(throws: ImagoError.self) { try RegionHidingProcessor(regions: Self.regions, style: .blur(sigma: 0)) }
        #expect(throws: ImagoError.self) { try RegionHidingProcessor(regions: Self.regions, style: .pixelate(cell: 1)) }
    }
}
