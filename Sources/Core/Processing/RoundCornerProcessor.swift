/// Rounds every frame's corners: outside a quarter ellipse of `radiusX` × `radiusY` pixels at each corner the
/// image becomes `background` (thumbor's `round_corner(a|b,r,g,b[,transparent])`). Edge pixels are blended by
/// how much of them lies inside (4 × 4 samples), so the curve is antialiased. Radii larger than half the image
/// are cut to half of it, as thumbor does.
public struct RoundCornerProcessor: ImageProcessor {
    /// The horizontal and vertical radii, in pixels (1 or more).
    public let radiusX: Int, radiusY: Int
    /// What the corners become; alpha 0 makes them transparent (and the image one with alpha).
    public let background: RGBA

    /// Creates the processor; a radius below 1 or above 100 000 throws `processingFailed`.
    public init(radiusX: Int, radiusY: Int, background: RGBA) throws {
        guard (1...100_000).contains(radiusX), (1...100_000).contains(radiusY) else {
            throw ImagoError(.processingFailed, "round corner radii \(radiusX)|\(radiusY) are not within 1…100000")
        }
        (self.radiusX, self.radiusY, self.background) = (radiusX, radiusY, background)
    }

    /// `round(AxB,RRGGBBAA)`.
    public var identifier: String { "round(\(radiusX)x\(radiusY),\(background.hex))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        var result = try image.mappingRasters { raster in
            let rx = min(radiusX, raster.width / 2)
            let ry = min(radiusY, raster.height / 2)
            guard rx > 0, ry > 0 else { return raster }
            let coverage = Self.coverage(radiusX: rx, radiusY: ry)
            let (width, height, background) = (raster.width, raster.height, background)
            return try raster.mappingPixels { pixels, offset in
                let x = offset / 4 % width
                let y = offset / 4 / width
                let cornerX = x < rx ? x : (x >= width - rx ? width - 1 - x : -1)
                let cornerY = y < ry ? y : (y >= height - ry ? height - 1 - y : -1)
                guard cornerX >= 0, cornerY >= 0 else { return }
                let inside = coverage[cornerY * rx + cornerX]
                guard inside < 16 else { return }
                Self.blend(pixels, offset, background, inside: inside)
            }
        }
        result.hasAlpha = image.hasAlpha || background.a < 255
        return result
    }

    /// For each pixel of the top-left corner box (row-major, `radiusX` a row): how many of its 4 × 4 samples lie
    /// inside the ellipse centred at (`radiusX`, `radiusY`).
    static func coverage(radiusX: Int, radiusY: Int) -> [UInt8] {
        let (a, b) = (Double(radiusX), Double(radiusY))
        var counts = [UInt8](repeating: 0, count: radiusX * radiusY)
        for y in 0..<radiusY {
            for x in 0..<radiusX {
                var inside: UInt8 = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let dx = (Double(x) + (Double(sx) + 0.5) / 4 - a) / a
                        let dy = (Double(y) + (Double(sy) + 0.5) / 4 - b) / b
                        if dx * dx + dy * dy <= 1 { inside += 1 }
                    }
                }
                counts[y * radiusX + x] = inside
            }
        }
        return counts
    }

    /// The pixel at `offset` blended with `background` by `inside`/16 coverage (straight alpha).
    static func blend(_ pixels: UnsafeMutableRawBufferPointer, _ offset: Int, _ background: RGBA, inside: UInt8) {
        let keep = Double(inside) / 16
        let alpha = Double(pixels[offset + 3]) * keep + Double(background.a) * (1 - keep)
        let colours = [background.r, background.g, background.b]
        for channel in 0..<3 {
            let mine = Double(pixels[offset + channel]) * Double(pixels[offset + 3]) * keep
            let theirs = Double(colours[channel]) * Double(background.a) * (1 - keep)
            pixels[offset + channel] = alpha > 0 ? UInt8(min(255, ((mine + theirs) / alpha).rounded())) : 0
        }
        pixels[offset + 3] = UInt8(min(255, alpha.rounded()))
    }
}
