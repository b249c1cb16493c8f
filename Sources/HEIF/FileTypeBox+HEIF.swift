import ImagoCore

extension FileTypeBox {
    /// HEVC major brand; or a structural HEIF major brand (or an HEVC or structural compatible one) without an AVIF
    /// brand anywhere, which the AVIF decoder claims.
    var isHEIF: Bool {
        if Self.hevcBrands.contains(major) { return true }
        if Self.avifBrands.contains(major) || compatible.contains(where: Self.avifBrands.contains) { return false }
        return Self.structuralBrands.contains(major)
            || compatible.contains { Self.hevcBrands.contains($0) || Self.structuralBrands.contains($0) }
    }
}
