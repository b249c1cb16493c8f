/// Turns every frame grey: each pixel's luma by ITU-R BT.601 weights, in integers as Pillow's `convert("L")`
/// computes it, so the result equals Pillow's (and thumbor's `grayscale()`); alpha is kept.
public struct GrayscaleProcessor: ImageProcessor {
    /// Creates the processor.
    public init() {}

    /// `grayscale`.
    public var identifier: String { "grayscale" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        try image.mappingRasters { raster in
            try raster.mappingPixels { pixels, offset in
                let luma =
                    (UInt32(pixels[offset]) * 19595 + UInt32(pixels[offset + 1]) * 38470
                        + UInt32(pixels[offset + 2]) * 7471 + 0x8000) >> 16
                let grey = UInt8(min(luma, 255))
                (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (grey, grey, grey)
            }
        }
    }
}
