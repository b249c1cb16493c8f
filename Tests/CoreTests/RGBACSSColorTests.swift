import Testing

@testable import ImagoCore

/// The colour names and hex forms thumbor's `fill()` and `background_color()` accept, against Pillow's
/// `ImageColor` (what thumbor calls) in thumbor's own environment.
@Suite struct RGBACSSColorTests {
    @Test func everyNameIsPillows() async throws {
        let output = try await PythonReference.run(
            """
            from PIL import ImageColor
            for name in sorted(ImageColor.colormap):
                print(name, '%02x%02x%02x' % ImageColor.getrgb(name))
            """, interpreter: ColourProcessorTests.thumborPython)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == RGBA.cssColorNames.count)
        for line in lines {
            let parts = line.split(separator: " ")
            let colour = try #require(RGBA(cssColor: parts[0]), "\(parts[0])")
            #expect(colour == RGBA(hex: parts[1]), "\(parts[0])")
        }
    }

    @Test func hexFormsCaseAndTransparent() {
        #expect(RGBA(cssColor: "Red") == RGBA(255, 0, 0))
        #expect(RGBA(cssColor: "BLUE") == RGBA(0, 0, 255))
        #expect(RGBA(cssColor: "f80") == RGBA(255, 136, 0))
        #expect(RGBA(cssColor: "#f808") == RGBA(255, 136, 0, 136))
        #expect(RGBA(cssColor: "00ff00") == RGBA(0, 255, 0))
        #expect(RGBA(cssColor: "12345678") == RGBA(0x12, 0x34, 0x56, 0x78))
        #expect(RGBA(cssColor: "transparent") == RGBA(0, 0, 0, 0))
        for bad in ["", "reddish", "12345", "#", "ff00zz", "f"] { #expect(RGBA(cssColor: bad) == nil, "\(bad)") }
    }
}
