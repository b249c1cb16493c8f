extension ImageFormat {
    /// The formats whose encoders take a quality (the lossy ones; WebP and JPEG XL can also be lossless).
    public static let formatsWithQuality: Set<ImageFormat> = [.jpeg, .webp, "avif", "jxl", "heic"]

    /// Whether this format's encoder takes a quality that `q=auto` can search (JPEG, WebP, AVIF, JPEG XL, HEIC; not
    /// PNG or GIF).
    public var hasQualitySetting: Bool { Self.formatsWithQuality.contains(self) }
}
