/// Turns stored pixels upright by their EXIF orientation (1–8) and marks the image `.up`.
public struct OrientationProcessor: ImageProcessor {
    public init() {}

    public var identifier: String { "orientation" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard image.orientation != .up else { return image }
        var result = image
        result.frames = try image.frames.map {
            ImageFrame(raster: try $0.raster.oriented(image.orientation), duration: $0.duration)
        }
        result.orientation = .up
        return result
    }
}
