/// Resizes every frame to exactly a target size, ignoring the aspect ratio (`fit=fill` of `imago serve`). A side of
/// 0 is the image's own (imgproxy's `force` with one side 0). Without `upscale`, a target larger than the image
/// along either side is shrunk, keeping its own aspect ratio, until it fits inside the image.
public struct StretchProcessor: ImageProcessor {
    /// The target size, in pixels.
    public var size: PixelSize
    /// Whether the output may be larger than the image.
    public var upscale: Bool
    /// The resampling filter.
    public var filter: ResizeFilter
    /// Bounds on an enlarged output, checked before resampling (not part of `identifier`).
    public var limits: DecodeLimits = .default

    /// Creates a stretch to `width` × `height`.
    public init(width: Int, height: Int, upscale: Bool = false, filter: ResizeFilter = .lanczos3) {
        self.size = PixelSize(width: width, height: height)
        self.upscale = upscale
        self.filter = filter
    }

    public var identifier: String { "stretch(\(size),\(upscale ? "upscale" : "noupscale"),\(filter.rawValue))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard size.width >= 0, size.height >= 0, size.width > 0 || size.height > 0 else {
            throw ImagoError(.processingFailed, "stretch to an empty size \(size)")
        }
        let (width, height) = outputSize(width: image.width, height: image.height)
        guard width != image.width || height != image.height else { return image }
        // Worded as every other limit (`too large: stretching to WxH exceeds the N MP limit`).
        try limits.checkGrowth(
            width: width, height: height, frames: image.frames.count, sourcePixels: image.width * image.height,
            what: "stretching")
        var result = image
        let rect = (x: 0.0, y: 0.0, width: Double(image.width), height: Double(image.height))
        result.frames = try image.frames.map { frame in
            ImageFrame(
                raster: try frame.raster.resampled(
                    sourceRect: rect, outputWidth: width, outputHeight: height, filter: filter),
                duration: frame.duration)
        }
        return result
    }

    /// The output size for an image of `width` × `height`.
    func outputSize(width: Int, height: Int) -> (Int, Int) {
        let target = (width: size.width > 0 ? size.width : width, height: size.height > 0 ? size.height : height)
        guard !upscale else { return target }
        let shrink = min(1, Double(width) / Double(target.width), Double(height) / Double(target.height))
        return (
            max(1, Int((Double(target.width) * shrink).rounded())),
            max(1, Int((Double(target.height) * shrink).rounded()))
        )
    }
}
