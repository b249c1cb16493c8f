/// Crops every frame to a rectangle, given in pixels of the image as it arrives at the processor.
public struct CropProcessor: ImageProcessor {
    /// Left edge, in pixels.
    public var x: Int
    /// Top edge, in pixels.
    public var y: Int
    /// Width, in pixels.
    public var width: Int
    /// Height, in pixels.
    public var height: Int

    /// Creates a crop of `width` × `height` at (`x`, `y`); it fails on images the rectangle does not fit in.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var identifier: String { "crop(\(x),\(y),\(width)x\(height))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        var result = image
        result.frames = try image.frames.map {
            ImageFrame(raster: try $0.raster.cropped(x: x, y: y, width: width, height: height), duration: $0.duration)
        }
        return result
    }
}
