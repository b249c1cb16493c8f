/// Composites every frame over a colour ("source over"): transparent parts take the colour, translucent ones are
/// blended with it. thumbor's `background_color(C)`, and what `fill(C,true)` does to the image's own transparent
/// areas. With an opaque colour the result is opaque (`hasAlpha` false). Colours are rounded to nearest.
public struct FlattenProcessor: ImageProcessor {
    /// What shows through, straight alpha.
    public let background: RGBA

    /// Creates the processor.
    public init(background: RGBA) {
        self.background = background
    }

    /// `flatten(RRGGBBAA)`.
    public var identifier: String { "flatten(\(background.hex))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard image.hasAlpha || image.frames.contains(where: { $0.raster.hasTransparency }) else { return image }
        if background.a == 255 {
            return try image.flattened(onto: RGBColor(background.r, background.g, background.b))
        }
        let background = self.background
        var result = try image.mappingRasters { raster in
            try raster.mappingPixels { pixels, offset in Self.composite(pixels, offset, over: background) }
        }
        result.hasAlpha = true
        return result
    }

    /// The pixel at `offset` composited over `background`, in place.
    static func composite(_ pixels: UnsafeMutableRawBufferPointer, _ offset: Int, over background: RGBA) {
        let top = Double(pixels[offset + 3]) / 255
        let bottom = Double(background.a) / 255 * (1 - top)
        let alpha = top + bottom
        guard alpha > 0 else {
            for channel in 0..<4 { pixels[offset + channel] = 0 }
            return
        }
        let colours = [background.r, background.g, background.b]
        for channel in 0..<3 {
            let value = (Double(pixels[offset + channel]) * top + Double(colours[channel]) * bottom) / alpha
            pixels[offset + channel] = UInt8(min(255, value.rounded()))
        }
        pixels[offset + 3] = UInt8(min(255, (alpha * 255).rounded()))
    }
}

extension FlattenProcessor: FrameWiseProcessing {
    /// Always: each frame is composited alike.
    public var processesFramesIndependently: Bool { true }
}
