import Foundation
import Imago
import ImagoTestSupport
import Testing

@Suite struct ConvertCommandTests {
    @Test func takesTheFormatFromTheExtensionOrTheFlag() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG()
        let jpeg = fixtures.path("out.jpg")
        #expect(try await ImagoTool.run(["convert", source, "-o", jpeg]).status == 0)
        #expect(try fixtures.decode(jpeg).format == .jpeg)
        let webp = fixtures.path("out.image")
        let result = try await ImagoTool.run(["convert", source, "-o", webp, "--format", "webp", "--lossless"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try fixtures.decode(webp)
        #expect(decoded.format == .webp)
        #expect(decoded.raster[0, 0] == RGBA(255, 0, 0))
        #expect(decoded.raster[0, 7] == RGBA(0, 0, 255))
    }

    @Test func writesIntoAPipeInsteadOfReplacingIt() async throws {
        // As `-o /dev/stdout` does when stdout is a pipe: the FIFO must receive the bytes and stay a FIFO.
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG()
        let pipe = fixtures.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        // Held open for reading and writing, so imago's open never waits for a reader.
        let descriptor = open(pipe, O_RDWR | O_NONBLOCK)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let result = try await ImagoTool.run(["convert", source, "-o", pipe, "--format", "png"])
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(descriptor, &buffer, buffer.count)
        #expect(count > 8)
        #expect(Array(buffer.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func anUpscaleBombIsRefusedWithALimitError() async throws {
        // 65535x65535 would be 17 GB of RGBA: refused before any allocation, one line on standard error.
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG()
        let destination = fixtures.path("big.png")
        let result = try await ImagoTool.run(["convert", source, "-o", destination, "--resize", "65535x65535"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("too large") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    @Test func qualityChangesTheJPEGSize() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.noisePNG(name: "noise.png")
        let low = fixtures.path("low.jpg")
        let high = fixtures.path("high.jpg")
        #expect(try await ImagoTool.run(["convert", source, "-o", low, "--quality", "10"]).status == 0)
        #expect(try await ImagoTool.run(["convert", source, "-o", high, "--quality", "95"]).status == 0)
        let lowSize = try FileManager.default.attributesOfItem(atPath: low)[.size] as? Int ?? 0
        let highSize = try FileManager.default.attributesOfItem(atPath: high)[.size] as? Int ?? 0
        #expect(lowSize > 0 && lowSize < highSize)
    }

    @Test func maxSizeFitsWithoutEnlarging() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG(width: 16, height: 8)
        let small = fixtures.path("small.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", small, "--max-size", "4"]).status == 0)
        let image = try fixtures.decode(small)
        #expect((image.width, image.height) == (4, 2))
        let same = fixtures.path("same.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", same, "--max-size", "100"]).status == 0)
        #expect(try fixtures.decode(same).width == 16)
    }

    @Test func resizeFitsOrFills() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG(width: 16, height: 8)
        let fit = fixtures.path("fit.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", fit, "--resize", "10x10"]).status == 0)
        let fitted = try fixtures.decode(fit)
        #expect((fitted.width, fitted.height) == (10, 5))
        let fill = fixtures.path("fill.png")
        #expect(
            try await ImagoTool.run(["convert", source, "-o", fill, "--resize", "10x10", "--mode", "fill"]).status == 0)
        let filled = try fixtures.decode(fill)
        #expect((filled.width, filled.height) == (10, 10))
        #expect(filled.raster[5, 0] == RGBA(255, 0, 0))
        #expect(filled.raster[5, 9] == RGBA(0, 0, 255))
    }

    @Test func frameNIsThatFramesCanvas() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.animation(as: .gif, name: "anim.gif")
        let second = fixtures.path("frame1.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", second, "--frame", "1"]).status == 0)
        let image = try fixtures.decode(second)
        #expect(image.frames.count == 1)
        #expect(image.raster[3, 3] == RGBA(0, 255, 0))
        let result = try await ImagoTool.run(["convert", source, "-o", fixtures.path("frame9.png"), "--frame", "9"])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(source): no frame 9: the image has 3 frames"])
        #expect(!FileManager.default.fileExists(atPath: fixtures.path("frame9.png")))
    }

    @Test func allFramesKeepsTheAnimationOnlyWhenAsked() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.animation(as: .gif, name: "anim.gif")
        let animated = fixtures.path("anim.webp")
        #expect(try await ImagoTool.run(["convert", source, "-o", animated, "--all-frames", "--lossless"]).status == 0)
        let image = try fixtures.decode(animated)
        #expect(image.frames.count == 3)
        #expect(image.raster[0, 0] == RGBA(255, 0, 0))
        let still = fixtures.path("still.gif")
        #expect(try await ImagoTool.run(["convert", source, "-o", still]).status == 0)
        #expect(try fixtures.decode(still).frames.count == 1)
    }

    @Test func orientationIsAppliedUnlessIgnored() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.orientedJPEG(name: "rotated.jpg", width: 12, height: 6, orientation: 6)
        let upright = fixtures.path("upright.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", upright]).status == 0)
        let turned = try fixtures.decode(upright)
        #expect((turned.width, turned.height) == (6, 12))
        // Orientation 6 turns the image clockwise: the stored left (white) half ends up on top.
        #expect(turned.raster[3, 1].r > 200)
        #expect(turned.raster[3, 10].r < 50)
        let stored = fixtures.path("stored.png")
        #expect(try await ImagoTool.run(["convert", source, "-o", stored, "--ignore-orientation"]).status == 0)
        let kept = try fixtures.decode(stored)
        #expect((kept.width, kept.height) == (12, 6))
    }

    @Test func aFailedSourceWritesNothing() async throws {
        let fixtures = try Fixtures()
        let text = try fixtures.notAnImage()
        let destination = fixtures.path("out.png")
        let result = try await ImagoTool.run(["convert", text, "-o", destination])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(text): not an image: unknown format"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixtures.folder.path)
        #expect(leftovers == ["notes.txt"])
    }
}

/// Formats without alpha get the transparent pixels composited onto white.
extension ConvertCommandTests {
    @Test func convertingTransparencyToJPEGFlattensItOntoWhite() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.write(
            DecodedImage(raster: try AlphaFixtures.raster(), format: .png), as: .png, name: "alpha.png")
        let output = fixtures.path("flat.jpg")
        let result = try await ImagoTool.run(["convert", source, "-o", output, "--quality", "95"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try fixtures.decode(output).raster
        let expected: [AlphaFixtures.Cell: RGBA] = [
            .transparentGreen: RGBA(255, 255, 255), .halfBlue: RGBA(127, 127, 255),
            .transparentBlack: RGBA(255, 255, 255), .opaqueRed: RGBA(255, 0, 0),
        ]
        let wrong = AlphaFixtures.mismatches(in: decoded, expected: expected, tolerance: 6)
        #expect(wrong.isEmpty, "\(wrong)")
    }
}
