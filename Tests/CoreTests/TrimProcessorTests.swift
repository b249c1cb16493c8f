import Testing

@testable import ImagoCore

/// Trimming against Pillow: the bounding box of the pixels whose difference from the top-left pixel exceeds the
/// threshold in some channel (`ImageChops.difference`, thresholded per band, `getbbox`).
@Suite struct TrimProcessorTests {
    /// A content block at (9, 5)-(30, 20) on a border whose colour wobbles by up to 6 levels.
    static func framed() throws -> Raster {
        var generator = TestImages.Generator(state: 3)
        return try TestImages.raster(40, 27) { x, y in
            let wobble = UInt8(generator.next() % 7)
            if (9...30).contains(x) && (5...20).contains(y) {
                return RGBA(UInt8(x * 6), UInt8(y * 9), 77)
            }
            return x == 0 && y == 0 ? RGBA(200, 210, 220) : RGBA(200 - wobble, 210 + wobble, 220, 255)
        }
    }

    @Test(arguments: [0, 6, 30, 255])
    func matchesPillowBoundingBox(threshold: Int) async throws {
        let raster = try Self.framed()
        let trimmed = try TrimProcessor(threshold: threshold).process(TestImages.image(raster))
        let expected = try await PythonReference.image(
            """
            t = int(args[0])
            diff = ImageChops.difference(im, Image.new("RGBA", im.size, im.getpixel((0, 0))))
            mask = None
            for band in diff.split():
                b = band.point(lambda v: 255 if v > t else 0)
                mask = b if mask is None else ImageChops.lighter(mask, b)
            box = mask.getbbox()
            out = im.crop(box) if box else im
            """, raster, arguments: ["\(threshold)"])
        #expect(trimmed.raster == expected, "threshold \(threshold): \(trimmed.width)x\(trimmed.height)")
    }

    @Test func theWobbleDecidesBetweenKeepingAndCutting() throws {
        let raster = try Self.framed()
        #expect(try TrimProcessor(threshold: 6).process(TestImages.image(raster)).width == 22)
        #expect(try TrimProcessor(threshold: 0).process(TestImages.image(raster)).width > 22)
    }

    @Test func anImageThatIsAllBorderIsUnchanged() throws {
        let flat = TestImages.image(try Raster(width: 9, height: 4, fill: RGBA(1, 2, 3)))
        let trimmed = try TrimProcessor(threshold: 0).process(flat)
        #expect(trimmed.width == 9 && trimmed.height == 4)
    }

    @Test func refusesThresholdsOutsideTheRange() {
        for threshold in [-1, 256] {
            let error = #expect(throws: ImagoError.self) { try TrimProcessor(threshold: threshold) }
            #expect(error?.kind == .processingFailed)
        }
        #expect((try? TrimProcessor(threshold: 12))?.identifier == "trim(12)")
    }
}
