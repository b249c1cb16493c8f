import Testing

@testable import ImagoCore

/// The trims the URL grammars ask for: thumbor's (`trim:bottom-right:N`, a Euclidean tolerance) against its own
/// `_bounding_box` C filter, imgproxy's colour and equal sides by its documented rule.
extension TrimProcessorTests {
    /// thumbor's bounding box (left, top, right, bottom, inclusive) of `raster`.
    func thumborsBox(_ raster: Raster, reference: String, tolerance: Int, mode: String) async throws -> [Int] {
        let output = try await PythonReference.image(
            """
            from thumbor.ext.filters import _bounding_box
            box = _bounding_box.apply('\(mode)', im.size[0], im.size[1], args[0], int(args[1]), im.convert('\(mode)').tobytes())
            out = Image.new('RGBA', (4, 1))
            out.putdata([tuple(box), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)])
            """, raster, arguments: [reference, "\(tolerance)"], interpreter: ColourProcessorTests.thumborPython)
        return [Int(output[0, 0].r), Int(output[0, 0].g), Int(output[0, 0].b), Int(output[0, 0].a)]
    }

    @Test(arguments: [("top-left", 0), ("top-left", 9), ("bottom-right", 4), ("bottom-right", 40)])
    func thumborsTrimsAreItsBoundingBox(reference: String, tolerance: Int) async throws {
        let raster = try Self.framed()
        let expected = try await thumborsBox(raster, reference: reference, tolerance: tolerance, mode: "RGB")
        let trim = try TrimProcessor(
            threshold: tolerance, reference: reference == "top-left" ? .topLeft : .bottomRight, distance: .euclidean)
        let trimmed = try trim.process(TestImages.image(raster, hasAlpha: false)).raster
        #expect([expected[2] - expected[0] + 1, expected[3] - expected[1] + 1] == [trimmed.width, trimmed.height])
        #expect(trimmed[0, 0] == raster[expected[0], expected[1]])
    }

    @Test func aColourAndEqualSides() throws {
        // White border, content at x 3…12 and y 2…5 of 20×10: 3 cut on the left, 7 on the right.
        let raster = try TestImages.raster(20, 10) { x, y in
            (3...12).contains(x) && (2...5).contains(y) ? RGBA(10, 20, 30) : RGBA(255, 255, 255)
        }
        let image = TestImages.image(raster, hasAlpha: false)
        let plain = try TrimProcessor(threshold: 10, reference: .colour(RGBA(255, 255, 255))).process(image)
        #expect(plain.width == 10 && plain.height == 4)
        let equal = try TrimProcessor(
            threshold: 10, reference: .colour(RGBA(255, 255, 255)), equalHorizontal: true, equalVertical: true
        ).process(image)
        #expect(equal.width == 14 && equal.height == 6)  // 3 from each side, 2 from top and bottom
        // The left and top cuts were the smaller ones: content starts at the corner; white is kept right and below.
        #expect(equal.raster[0, 0] == RGBA(10, 20, 30))
        #expect(equal.raster[13, 0] == RGBA(255, 255, 255) && equal.raster[0, 5] == RGBA(255, 255, 255))
        // Transparency counts as magenta, as imgproxy keys it: a transparent border trims with colour ff00ff.
        let clear = try TestImages.raster(6, 6) { x, y in
            (2...3).contains(x) && (2...3).contains(y) ? RGBA(0, 0, 0) : RGBA(0, 0, 0, 0)
        }
        let keyed = try TrimProcessor(threshold: 5, reference: .colour(RGBA(255, 0, 255))).process(
            TestImages.image(clear))
        #expect(keyed.width == 2 && keyed.height == 2)
        #expect(
            try TrimProcessor(threshold: 3, reference: .bottomRight, distance: .euclidean, equalVertical: true)
                .identifier == "trim(3,ref=br,euclidean,equal=v)")
        #expect(throws: ImagoError.self) { try TrimProcessor(threshold: 300, reference: .topLeft) }
        #expect((try? TrimProcessor(threshold: 300, reference: .topLeft, distance: .euclidean)) != nil)
    }
}
