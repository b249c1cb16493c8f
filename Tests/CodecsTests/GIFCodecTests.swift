import Foundation
import ImagoCodecs
import ImagoCore
import Testing

@Suite struct GIFCodecTests {
    static let red = RGBA(255, 0, 0)
    static let green = RGBA(0, 255, 0)
    static let blue = RGBA(0, 0, 255)
    static let clear = RGBA(0, 0, 0, 0)
    static let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]

    static func solid(_ index: UInt8, _ width: Int, _ height: Int) -> [UInt8] {
        Array(repeating: index, count: width * height)
    }

    @Test func sniffsOnlyGIFSignatures() {
        let codec = GIFCodec()
        #expect(codec.canDecode(Data("GIF89a\u{1}\u{0}".utf8)))
        #expect(codec.canDecode(Data("GIF87a".utf8)))
        #expect(!codec.canDecode(Data("GIF88a".utf8)))
        #expect(!codec.canDecode(Data("GIF8".utf8)))
        #expect(!codec.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!codec.canDecode(Data("RIFF\0\0\0\0WEBPVP8 ".utf8)))
    }

    @Test func compositesOffsetsDisposalsAndTransparencyAsBrowsersDo() throws {
        var file = GIFTestFile(width: 4, height: 4, palette: Self.palette, repeatCount: 0)
        // 0: red everywhere. 1: blue 2x2 at (1,1), then cleared to transparent (disposal 2).
        // 2: green 1x1 at (0,0), then restored to what was before it (disposal 3).
        // 3: a 2x2 frame at (3,3), clipped to its top-left pixel, white with a transparent index elsewhere.
        file.frames = [
            .init(width: 4, height: 4, indices: Self.solid(0, 4, 4), delayCentiseconds: 10),
            .init(
                left: 1, top: 1, width: 2, height: 2, indices: Self.solid(2, 2, 2), disposal: 2, delayCentiseconds: 20),
            .init(width: 1, height: 1, indices: [1], disposal: 3, delayCentiseconds: 0),
            .init(
                left: 3, top: 3, width: 2, height: 2, indices: [3, 1, 1, 1], transparentIndex: 1, delayCentiseconds: 1),
        ]
        let image = try GIFCodec().decode(file.data)
        #expect(image.frames.count == 4)
        #expect(image.loopCount == 0)
        #expect(image.durations == [0.1, 0.2, 0.1, 0.1])  // 0 and 1 centisecond play for 0.1 s
        #expect(image.hasAlpha)
        #expect(image.frames[0].raster[2, 2] == Self.red)
        #expect(image.frames[1].raster[1, 1] == Self.blue && image.frames[1].raster[0, 0] == Self.red)
        let third = image.frames[2].raster
        #expect(third[0, 0] == Self.green)
        #expect(third[1, 1] == Self.clear && third[2, 2] == Self.clear, "disposal 2 leaves the rectangle transparent")
        #expect(third[3, 3] == Self.red)
        let fourth = image.frames[3].raster
        #expect(fourth[0, 0] == Self.red, "disposal 3 restored the canvas from before frame 2")
        #expect(fourth[3, 3] == RGBA(255, 255, 255), "the part inside the screen is drawn")
        #expect(fourth[1, 1] == Self.clear)
    }

    /// Browsers leave the part of the screen an opaque first frame does not cover transparent; Pillow and
    /// ImageMagick show the background colour there (when the background index is 0 they agree), and so do we.
    @Test func uncoveredScreenShowsTheBackgroundUnderAnOpaqueFirstFrameAndLocalPalettesApply() throws {
        var file = GIFTestFile(width: 3, height: 2, palette: Self.palette)
        file.frames = [
            .init(left: 1, top: 0, width: 2, height: 1, indices: [0, 1], localPalette: [[9, 8, 7], [1, 2, 3]])
        ]
        let image = try GIFCodec().decode(file.data)
        #expect(image.frames.count == 1 && image.loopCount == 0 && image.durations == [0])
        #expect(image.raster[0, 0] == Self.red && image.raster[2, 1] == Self.red, "background index 0 is red")
        #expect(image.raster[1, 0] == RGBA(9, 8, 7) && image.raster[2, 0] == RGBA(1, 2, 3))
        #expect(!image.hasAlpha)
    }

    @Test func uncoveredScreenStaysTransparentUnderAFirstFrameWithTransparency() throws {
        var file = GIFTestFile(width: 3, height: 2, palette: Self.palette)
        file.frames = [.init(left: 1, top: 0, width: 2, height: 1, indices: [1, 2], transparentIndex: 2)]
        let image = try GIFCodec().decode(file.data)
        // Invisible, but the bytes the references give: the transparent index's colour under alpha 0.
        let beneath = RGBA(0, 0, 255, 0)
        #expect(image.raster[0, 0] == beneath && image.raster[2, 1] == beneath && image.raster[2, 0] == beneath)
        #expect(image.raster[1, 0] == Self.green && image.hasAlpha)
    }

    /// Browsers stop at a byte that starts no block; Pillow and ImageMagick skip it, and so do we.
    @Test func junkBetweenBlocksIsSkippedAsTheReferencesDo() throws {
        var file = GIFTestFile(width: 2, height: 1, palette: Self.palette, repeatCount: 0)
        file.frames = [.init(width: 2, height: 1, indices: [0, 0]), .init(width: 2, height: 1, indices: [2, 2])]
        var bytes = [UInt8](file.data)
        // The second frame's graphics control extension starts with 0x21 after the first image's data.
        let second = try #require(bytes.indices.reversed().first { bytes[$0] == 0x21 && bytes[$0 + 1] == 0xF9 })
        bytes.insert(contentsOf: Array("junk GIF89a".utf8), at: second)
        let image = try GIFCodec().decode(Data(bytes))
        #expect(image.frames.count == 2)
        #expect(image.frames[1].raster[0, 0] == Self.blue)
    }

    @Test func interlacedRowsLandWhereTheyBelong() throws {
        let indices: [UInt8] = (0..<10).flatMap { row in [UInt8(row % 4), UInt8((row + 1) % 4)] }
        var plain = GIFTestFile(width: 2, height: 10, palette: Self.palette)
        plain.frames = [.init(width: 2, height: 10, indices: indices)]
        var interlaced = plain
        interlaced.frames[0].interlaced = true
        let expected = try GIFCodec().decode(plain.data).raster
        #expect(try GIFCodec().decode(interlaced.data).raster == expected)
        #expect(expected[0, 1] == Self.green && expected[1, 9] == Self.blue)
    }

    @Test func missingLoopExtensionPlaysOnceAndRepeatCountsAddTheFirstPlay() throws {
        var file = GIFTestFile(width: 1, height: 1, palette: Self.palette)
        file.frames = [.init(width: 1, height: 1, indices: [0]), .init(width: 1, height: 1, indices: [1])]
        #expect(try GIFCodec().decode(file.data).loopCount == 1)
        file.repeatCount = 2
        #expect(try GIFCodec().decode(file.data).loopCount == 3)
    }

    @Test func firstFrameOnlyWhenAsked() throws {
        var file = GIFTestFile(width: 2, height: 2, palette: Self.palette)
        file.frames = [
            .init(width: 2, height: 2, indices: Self.solid(0, 2, 2)),
            .init(width: 2, height: 2, indices: Self.solid(1, 2, 2)),
        ]
        let image = try GIFCodec().decode(file.data, options: DecodeOptions(frames: .first))
        #expect(image.frames.count == 1 && image.raster[1, 1] == Self.red)
    }

    @Test func frameBelowTheScreenWithDisposalIsIgnored() throws {
        // Found by the fuzzer: a frame starting below the screen, disposed to background, crashed the clipping.
        var file = GIFTestFile(width: 2, height: 2, palette: Self.palette)
        file.frames = [
            .init(width: 2, height: 2, indices: Self.solid(0, 2, 2)),
            .init(left: 5, top: 7, width: 2, height: 2, indices: Self.solid(1, 2, 2), disposal: 2),
            .init(width: 1, height: 1, indices: [2]),
        ]
        let image = try GIFCodec().decode(file.data)
        #expect(image.frames.count == 3)
        #expect(image.frames[2].raster[0, 0] == Self.blue && image.frames[2].raster[1, 1] == Self.red)
    }
}
