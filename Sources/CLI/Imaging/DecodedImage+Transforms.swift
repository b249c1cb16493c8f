import ImagoCore

/// Whole-image operations: every frame gets the same treatment.
extension DecodedImage {
    /// The image turned upright; the result's orientation is `.up`.
    func upright() throws -> DecodedImage {
        guard orientation != .up else { return self }
        var copy = try mapFrames { try $0.applying(orientation) }
        copy.orientation = .up
        return copy
    }

    /// Only frame `index` (0-based), as a still image.
    func frame(_ index: Int) throws -> DecodedImage {
        guard frames.indices.contains(index) else {
            throw ImagoError(
                .processingFailed,
                "no frame \(index): the image has \(frames.count) frame\(frames.count == 1 ? "" : "s")")
        }
        var copy = self
        copy.frames = [ImageFrame(raster: frames[index].raster)]
        copy.loopCount = 0
        return copy
    }

    /// The image with `transform` applied to every frame's canvas.
    func mapFrames(_ transform: (Raster) throws -> Raster) throws -> DecodedImage {
        var copy = self
        copy.frames = try frames.map { ImageFrame(raster: try transform($0.raster), duration: $0.duration) }
        return copy
    }
}
