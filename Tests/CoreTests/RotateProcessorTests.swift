import Testing

@testable import ImagoCore

/// Rotations against Pillow's `transpose`, exactly, on an odd-sized image with alpha.
@Suite struct RotateProcessorTests {
    @Test(arguments: [(90, "ROTATE_270"), (180, "ROTATE_180"), (270, "ROTATE_90")])
    func matchesPillowTranspose(degrees: Int, pillow: String) async throws {
        let raster = try TestImages.photoLike(37, 23, alpha: true)
        let rotated = try RotateProcessor(degrees: degrees).process(TestImages.image(raster))
        let expected = try await PythonReference.image("out = im.transpose(Image.\(pillow))", raster)
        #expect(rotated.raster == expected, "rotate \(degrees)")
        #expect(rotated.width == (degrees == 180 ? 37 : 23))
    }

    @Test func refusesOtherAngles() {
        for degrees in [0, 45, 360, -90] {
            let error = #expect(throws: ImagoError.self) { try RotateProcessor(degrees: degrees) }
            #expect(error?.kind == .processingFailed)
        }
    }

    @Test func rotatesEveryFrameAndNamesTheAngle() throws {
        let frames = try (0..<3).map {
            ImageFrame(raster: try TestImages.photoLike(5, 3, alpha: false, seed: UInt64($0)), duration: 0.1)
        }
        let animation = DecodedImage(frames: frames, format: .gif, hasAlpha: false)
        let rotated = try RotateProcessor(.degrees90).process(animation)
        #expect(rotated.frames.count == 3)
        #expect(rotated.frames.allSatisfy { $0.raster.width == 3 && $0.raster.height == 5 })
        #expect(rotated.frames[2].raster == (try frames[2].raster.oriented(.right)))
        #expect(RotateProcessor(.degrees270).identifier == "rotate(270)")
    }

    /// The fast paths (`Raster.transposed`) against the pixel-by-pixel reference, for all eight orientations, on
    /// sizes around the 32-pixel tile and with padded rows.
    @Test func fastPathsMatchThePixelByPixelReference() throws {
        let padded = try Raster(width: 5, height: 3, bytesPerRow: 32) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index * 7) }
        }
        var rasters = [padded]
        for (width, height) in [(1, 1), (1, 9), (33, 31), (70, 65)] {
            rasters.append(try TestImages.photoLike(width, height, alpha: true))
        }
        for raster in rasters {
            for orientation in ImageOrientation.allCases {
                #expect(
                    try raster.oriented(orientation) == raster.orientedByIndex(orientation),
                    "\(orientation) on \(raster.width)x\(raster.height)")
            }
        }
    }
}
