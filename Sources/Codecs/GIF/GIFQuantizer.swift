import CGIF
import ImagoCore

/// One frame reduced to at most 256 palette indices.
struct GIFIndexedFrame {
    /// One index per pixel, rows `width` apart.
    var indices: [UInt8]
    /// The colours, r, g, b; at most 256.
    var colors: [GifColorType]
    /// The index that stands for pixels with alpha below 128, if any pixel has it.
    var transparentIndex: Int?
}

/// Reduces an RGBA raster to a GIF palette: the exact colours when there are few enough, otherwise giflib's
/// median-cut quantiser (`GifQuantizeBuffer`). Pixels with alpha below 128 become the transparent index.
enum GIFQuantizer {
    static func quantize(_ raster: Raster) throws -> GIFIndexedFrame {
        let pixels = raster.pixels
        let count = raster.width * raster.height
        let hasTransparency = stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] < 128 }
        let available = hasTransparency ? 255 : 256
        if let exact = exactPalette(pixels, count: count, limit: available, hasTransparency: hasTransparency) {
            return exact
        }
        return try medianCut(pixels, width: raster.width, height: raster.height, colors: available)
    }

    /// The image's own colours in order of appearance, or nil when there are more than `limit`.
    private static func exactPalette(
        _ pixels: [UInt8], count: Int, limit: Int, hasTransparency: Bool
    ) -> GIFIndexedFrame? {
        var lookup: [UInt32: UInt8] = [:]
        var colors: [GifColorType] = []
        var indices = [UInt8](repeating: 0, count: count)
        let transparent = UInt8(truncatingIfNeeded: limit)  // 255 when transparency needs a slot
        for pixel in 0..<count {
            let offset = pixel * 4
            if pixels[offset + 3] < 128 {
                indices[pixel] = transparent
                continue
            }
            let key = UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2])
            if let index = lookup[key] {
                indices[pixel] = index
                continue
            }
            guard colors.count < limit else { return nil }
            let index = UInt8(colors.count)
            lookup[key] = index
            colors.append(GifColorType(Red: pixels[offset], Green: pixels[offset + 1], Blue: pixels[offset + 2]))
            indices[pixel] = index
        }
        var transparentIndex: Int?
        if hasTransparency {
            // The transparent entry goes right after the colours (its own colour is never shown); transparent
            // pixels were marked 255 above, which no colour can have since the limit was 255.
            let index = UInt8(colors.count)
            if index != transparent {
                for pixel in 0..<count where indices[pixel] == transparent { indices[pixel] = index }
            }
            colors.append(GifColorType(Red: 0, Green: 0, Blue: 0))
            transparentIndex = Int(index)
        }
        return GIFIndexedFrame(indices: indices, colors: colors, transparentIndex: transparentIndex)
    }

    /// giflib's median cut over the colour planes, then the transparent pixels moved to index 255.
    private static func medianCut(_ pixels: [UInt8], width: Int, height: Int, colors: Int) throws -> GIFIndexedFrame {
        let count = width * height
        var red = [UInt8](repeating: 0, count: count)
        var green = red
        var blue = red
        for pixel in 0..<count {
            red[pixel] = pixels[pixel * 4]
            green[pixel] = pixels[pixel * 4 + 1]
            blue[pixel] = pixels[pixel * 4 + 2]
        }
        var indices = [UInt8](repeating: 0, count: count)
        var palette = [GifColorType](repeating: GifColorType(), count: 256)
        var size = Int32(colors)
        let status = GifQuantizeBuffer(
            UInt32(width), UInt32(height), &size, &red, &green, &blue, &indices, &palette)
        guard status == GIF_OK, size > 0, size <= colors else {
            throw GIFErrors.encoding("colour quantisation failed")
        }
        let hasTransparency = colors == 255
        if hasTransparency {
            for pixel in 0..<count where pixels[pixel * 4 + 3] < 128 { indices[pixel] = 255 }
        }
        return GIFIndexedFrame(
            indices: indices, colors: Array(palette.prefix(hasTransparency ? 256 : Int(size))),
            transparentIndex: hasTransparency ? 255 : nil)
    }
}
