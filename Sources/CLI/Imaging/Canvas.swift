import ImagoCore

/// A mutable RGBA drawing surface for contact sheets: rectangles, images, lines and text.
struct Canvas {
    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    /// A canvas filled with `background`.
    init(width: Int, height: Int, background: RGBA) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        fill(x: 0, y: 0, width: width, height: height, color: background)
    }

    /// The finished picture.
    func raster() throws -> Raster { try Raster(width: width, height: height, pixels: pixels) }

    /// Sets one pixel, blending by the colour's alpha; points outside are ignored.
    mutating func plot(_ x: Int, _ y: Int, _ color: RGBA) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let offset = (y * width + x) * 4
        let alpha = Int(color.a)
        if alpha == 255 {
            pixels[offset] = color.r
            pixels[offset + 1] = color.g
            pixels[offset + 2] = color.b
        } else if alpha > 0 {
            for (channel, value) in [color.r, color.g, color.b].enumerated() {
                let under = Int(pixels[offset + channel])
                pixels[offset + channel] = UInt8((Int(value) * alpha + under * (255 - alpha) + 127) / 255)
            }
        }
        pixels[offset + 3] = 255
    }

    /// Fills a rectangle.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, color: RGBA) {
        for row in y..<(y + height) {
            for column in x..<(x + width) { plot(column, row, color) }
        }
    }

    /// Draws `raster` with its top-left corner at (`x`, `y`), blended over what is there.
    mutating func draw(_ raster: Raster, x: Int, y: Int) {
        for row in 0..<raster.height {
            for column in 0..<raster.width { plot(x + column, y + row, raster[column, row]) }
        }
    }

    /// Draws a line `thickness` pixels wide from (`x0`, `y0`) to (`x1`, `y1`).
    mutating func line(from start: (Int, Int), to end: (Int, Int), thickness: Int, color: RGBA) {
        let steps = max(abs(end.0 - start.0), abs(end.1 - start.1), 1)
        let half = thickness / 2
        for step in 0...steps {
            let x = start.0 + (end.0 - start.0) * step / steps
            let y = start.1 + (end.1 - start.1) * step / steps
            for dy in -half..<(thickness - half) {
                for dx in -half..<(thickness - half) { plot(x + dx, y + dy, color) }
            }
        }
    }

    /// Draws `text` in the 5×7 bitmap font with its top-left corner at (`x`, `y`).
    mutating func text(_ text: String, x: Int, y: Int, color: RGBA) {
        for (index, character) in text.enumerated() {
            let left = x + index * BitmapFont.advance
            for column in 0..<BitmapFont.glyphWidth {
                for row in 0..<BitmapFont.glyphHeight where BitmapFont.isInk(character, column: column, row: row) {
                    plot(left + column, y + row, color)
                }
            }
        }
    }
}
