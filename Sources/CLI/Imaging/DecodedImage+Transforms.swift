import Imago

/// Whole-image operations the commands share, built on the toolkit's processors.
extension DecodedImage {
    /// The image turned upright by its EXIF orientation; the result's orientation is `.up`.
    func upright() throws -> DecodedImage {
        try OrientationProcessor().process(self)
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

    /// The image scaled to exactly `columns` pixels wide, its height in proportion (enlarging if need be), with
    /// Catmull-Rom: at a terminal's few pixels a cell, Lanczos3's wider reach bleeds across hard edges.
    func scaled(toWidth columns: Int) throws -> DecodedImage {
        try ResizeProcessor(
            width: columns, height: Int(Int32.max), mode: .fit, upscale: true, filter: .catmullRom
        ).process(self)
    }
}
