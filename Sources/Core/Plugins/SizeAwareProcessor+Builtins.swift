/// The built-in processors' decode-size needs.
extension ResizeProcessor: SizeAwareProcessor {
    /// The resize's size, upright as the resize sees the image: decoders that report an EXIF orientation turn it
    /// to the stored space (`DecodeOptions.targetSize(forStoredOrientation:)`) before choosing the scale. Covering
    /// the size under `.fill` also covers a `.fit` result. Adjustments that work on the source's own pixels
    /// (`ResizeAdjustments.needsFullSizeImage`: focal regions, thumbor's window) need the full size.
    public var decodeSizeNeed: DecodeSizeNeed { adjustments.needsFullSizeImage ? .fullSize : .covering(size) }
}

extension CropProcessor: SizeAwareProcessor {
    /// A crop is by pixel coordinates of the full image.
    public var decodeSizeNeed: DecodeSizeNeed { .fullSize }
}

extension OrientationProcessor: SizeAwareProcessor {
    /// Turning the image does not care about its size.
    public var decodeSizeNeed: DecodeSizeNeed { .anySize }
}
