/// Stage 5: the stored pixels turned upright by their EXIF orientation, unless the request keeps them as stored;
/// the display scale is set here too.
enum OrientationStage {
    static func apply(to image: DecodedImage, for request: ImageRequest) throws -> DecodedImage {
        var image = image
        if request.appliesOrientation, image.orientation != .up {
            image = try OrientationProcessor().process(image)
        }
        image.scale = request.scale
        return image
    }
}
