import ImagoCore

extension FileTypeBox {
    /// An AVIF major brand, or an AVIF compatible brand under a major brand that is not HEVC (a HEIC that also
    /// lists `avif` belongs to the HEIF decoder, which makes the same decision the other way round).
    var isAVIF: Bool {
        if Self.avifBrands.contains(major) { return true }
        if Self.hevcBrands.contains(major) { return false }
        return compatible.contains(where: Self.avifBrands.contains)
    }
}
