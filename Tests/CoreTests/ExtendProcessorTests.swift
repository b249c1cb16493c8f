import Testing

@testable import ImagoCore

/// The canvas extension against Pillow (a canvas of the background with the image pasted where the gravity says).
@Suite struct ExtendProcessorTests {
    static let cases: [(Gravity, Int, Int)] = [
        (.center, 40, 30), (.northWest, 40, 30), (.southEast, 40, 30), (.east, 40, 30),
        (.focusPoint(x: 0.25, y: 0.75), 40, 30), (.center, 20, 30), (.south, 10, 10),
    ]

    @Test(arguments: cases.indices)
    func matchesPillowPaste(index: Int) async throws {
        let (gravity, width, height) = Self.cases[index]
        let raster = try TestImages.photoLike(23, 17, alpha: true)
        let extended = try ExtendProcessor(
            width: width, height: height, gravity: gravity, background: RGBA(255, 0, 0, 255)
        ).process(TestImages.image(raster))
        // The placement: the free space times the gravity's anchor, rounded down (negative: the image is cut).
        let anchor = gravity.anchor
        let expected = try await PythonReference.image(
            """
            import math
            W, H, ax, ay = int(args[0]), int(args[1]), float(args[2]), float(args[3])
            out = Image.new("RGBA", (W, H), (255, 0, 0, 255))
            out.paste(im, (math.floor((W - im.width) * ax), math.floor((H - im.height) * ay)))
            """, raster, arguments: ["\(width)", "\(height)", "\(anchor.x)", "\(anchor.y)"])
        #expect(extended.raster == expected, "\(gravity) \(width)x\(height)")
    }

    @Test func refusesEmptySizesBadFocusPointsAndHugeCanvases() throws {
        #expect(throws: ImagoError.self) { try ExtendProcessor(width: 0, height: 10) }
        #expect(throws: ImagoError.self) {
            try ExtendProcessor(width: 10, height: 10, gravity: .focusPoint(x: 2, y: 0))
        }
        let huge = try ExtendProcessor(width: 100_000, height: 100_000)
        let error = #expect(throws: ImagoError.self) {
            try huge.process(TestImages.image(try TestImages.photoLike(2, 2, alpha: false)))
        }
        #expect(error?.kind == .limitExceeded)
        #expect(
            try ExtendProcessor(width: 8, height: 6, gravity: .north).identifier == "extend(8x6,g=n,ffffffff)")
    }
}
