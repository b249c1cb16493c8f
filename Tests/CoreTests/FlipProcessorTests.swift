import Testing

@testable import ImagoCore

/// Flips against Pillow's `transpose`, exactly.
@Suite struct FlipProcessorTests {
    @Test(arguments: [
        (FlipProcessor.Direction.horizontal, "FLIP_LEFT_RIGHT"), (.vertical, "FLIP_TOP_BOTTOM"), (.both, "ROTATE_180"),
    ])
    func matchesPillowTranspose(direction: FlipProcessor.Direction, pillow: String) async throws {
        let raster = try TestImages.photoLike(31, 17, alpha: true)
        let flipped = try FlipProcessor(direction).process(TestImages.image(raster))
        let expected = try await PythonReference.image("out = im.transpose(Image.\(pillow))", raster)
        #expect(flipped.raster == expected, "\(direction)")
        #expect(FlipProcessor(direction).identifier == "flip(\(direction.rawValue))")
    }
}
