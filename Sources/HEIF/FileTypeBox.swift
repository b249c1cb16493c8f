import Foundation

/// The brands of an ISO-BMFF `ftyp` box, as far as the given bytes reach (32 when sniffing: the major brand and
/// the first four compatible ones).
struct FileTypeBox {
    let major: String
    let compatible: [String]

    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(256))
        guard bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16 else { return nil }
        major = String(decoding: bytes[8..<12], as: UTF8.self)
        var brands: [String] = []
        var offset = 16
        while offset + 4 <= Swift.min(size, bytes.count) {
            brands.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 4
        }
        compatible = brands
    }

    static let avifBrands: Set<String> = ["avif", "avis"]
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    static let structuralBrands: Set<String> = ["mif1", "msf1", "miaf"]

    /// HEVC major brand; or a structural HEIF major brand (or an HEVC or structural compatible one) without an AVIF
    /// brand anywhere, which the AVIF decoder claims.
    var isHEIF: Bool {
        if Self.hevcBrands.contains(major) { return true }
        if Self.avifBrands.contains(major) || compatible.contains(where: Self.avifBrands.contains) { return false }
        return Self.structuralBrands.contains(major)
            || compatible.contains { Self.hevcBrands.contains($0) || Self.structuralBrands.contains($0) }
    }
}
