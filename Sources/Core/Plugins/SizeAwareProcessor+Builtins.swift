/// The built-in processors' decode-size needs.
extension ResizeProcessor: SizeAwareProcessor {
    /// A square of the resize's larger side: the reduced image then covers the resize whatever the EXIF
    /// orientation turns out to be, so the result is as sharp as without it.
    public var decodeSizeNeed: DecodeSizeNeed {
        let side = Swift.max(size.width, size.height)
        return .covering(PixelSize(width: side, height: side))
    }
}

extension CropProcessor: SizeAwareProcessor {
    /// A crop is by pixel coordinates of the full image.
    public var decodeSizeNeed: DecodeSizeNeed { .fullSize }
}

extension OrientationProcessor: SizeAwareProcessor {
    /// Turning the image does not care about its size.
    public var decodeSizeNeed: DecodeSizeNeed { .anySize }
}
