import ImagoCore

/// Draws a raster as terminal text, one column a pixel and one line every two pixel rows.
enum TerminalPicture {
    /// True colour: `▀` with the foreground the top pixel and the background the bottom one; transparency shows a
    /// checkerboard, as image viewers do. A colour is only sent when it changes from the previous cell.
    static func trueColor(_ raster: Raster) -> String {
        var text = ""
        text.reserveCapacity(raster.width * (raster.height / 2 + 1) * 24)
        var y = 0
        while y < raster.height {
            var foreground: RGBA?
            var background: RGBA?
            for x in 0..<raster.width {
                let top = composite(raster[x, y], x: x, y: y)
                if top != foreground { text += "\u{1B}[38;2;\(top.r);\(top.g);\(top.b)m" }
                foreground = top
                if y + 1 < raster.height {
                    let bottom = composite(raster[x, y + 1], x: x, y: y + 1)
                    if bottom != background { text += "\u{1B}[48;2;\(bottom.r);\(bottom.g);\(bottom.b)m" }
                    background = bottom
                } else if x == 0 {
                    // An odd last row: the lower half is left to the terminal's own background.
                    text += "\u{1B}[49m"
                }
                text += "▀"
            }
            text += "\u{1B}[0m\n"
            y += 2
        }
        return text
    }

    /// No colour (`NO_COLOR`): a character ramp by brightness, for a dark terminal; transparency reads as black.
    static func grayscale(_ raster: Raster) -> String {
        let ramp = Array(" .:-=+*#%@")
        var text = ""
        var y = 0
        while y < raster.height {
            for x in 0..<raster.width {
                var sum = luminance(raster[x, y])
                if y + 1 < raster.height { sum = (sum + luminance(raster[x, y + 1])) / 2 }
                text.append(ramp[min(ramp.count - 1, Int(sum * Double(ramp.count)))])
            }
            text += "\n"
            y += 2
        }
        return text
    }

    /// The pixel over a checkerboard of 4-pixel squares.
    static func composite(_ pixel: RGBA, x: Int, y: Int) -> RGBA {
        if pixel.a == 255 { return pixel }
        let backdrop: UInt8 = ((x / 4) + (y / 4)) % 2 == 0 ? 204 : 153
        let alpha = Int(pixel.a)
        func blend(_ channel: UInt8) -> UInt8 {
            UInt8((Int(channel) * alpha + Int(backdrop) * (255 - alpha) + 127) / 255)
        }
        return RGBA(blend(pixel.r), blend(pixel.g), blend(pixel.b))
    }

    /// Relative brightness from 0 to 1 (Rec. 709 weights), premultiplied by alpha.
    static func luminance(_ pixel: RGBA) -> Double {
        let value = 0.2126 * Double(pixel.r) + 0.7152 * Double(pixel.g) + 0.0722 * Double(pixel.b)
        return value / 255 * Double(pixel.a) / 255
    }
}
