import Foundation
import Testing

@testable import ImagoCore

/// imgproxy's `pixelate:N` against libvips (pyvips in /opt/imago-vips-venv) doing what imgproxy's `vips_pixelate`
/// does: extend by copying the edges to a multiple of N, shrink by N, zoom by N, cut to the size.
@Suite struct PixelateProcessorTests {
    static let vipsPython = "/opt/imago-vips-venv/bin/python3"

    @Test(arguments: [4, 7, 16])
    func equalsLibvipsShrinkAndZoom(size: Int) async throws {
        let raster = try TestImages.photoLike(45, 30, alpha: false)
        let pixelated = try PixelateProcessor(blockSize: size).process(TestImages.image(raster, hasAlpha: false))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imago-pix-\(UUID().uuidString)")
        try Data(raster.pixels).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await PythonReference.run(
            """
            import sys, pyvips
            w, h, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            im = pyvips.Image.new_from_memory(open(sys.argv[1], 'rb').read(), w, h, 4, 'uchar')
            tw, th = (w + n - 1) // n * n, (h + n - 1) // n * n
            im = im.embed(0, 0, tw, th, extend='copy').shrink(n, n).zoom(n, n).extract_area(0, 0, w, h)
            sys.stdout.buffer.write(im.write_to_memory())
            """, arguments: [file.path, "45", "30", "\(size)"], interpreter: Self.vipsPython)
        let expected = try Raster(width: 45, height: 30, pixels: [UInt8](output))
        // libvips rounds its averages its own way: within a level.
        #expect(PythonReference.maxDifference(pixelated.raster, expected) <= 1)
        #expect(pixelated.raster[0, 0] == pixelated.raster[size - 1, size - 1])
    }

    @Test func averagesInPremultipliedAlphaAndPixelatesARegionOnly() throws {
        // Half transparent red, half opaque blue: the block is blue-ish, not purple from the hidden red.
        let raster = try TestImages.raster(4, 4) { x, _ in x < 2 ? RGBA(255, 0, 0, 0) : RGBA(0, 0, 255) }
        let block = try PixelateProcessor(blockSize: 4).process(TestImages.image(raster)).raster[0, 0]
        #expect(block == RGBA(0, 0, 255, 128))
        let photo = try TestImages.photoLike(20, 20, alpha: false)
        let region = try photo.pixelated(blockSize: 5, region: (x: 10, y: 10, width: 10, height: 10))
        #expect(region[2, 2] == photo[2, 2] && region[10, 10] == region[14, 14])
        #expect(try PixelateProcessor(blockSize: 1).process(TestImages.image(photo)).raster == photo)
        #expect(try PixelateProcessor(blockSize: 8).identifier == "pixelate(8)")
        #expect(throws: ImagoError.self) { try PixelateProcessor(blockSize: 0) }
    }
}
