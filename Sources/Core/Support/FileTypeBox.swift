import Foundation

/// The brands of an ISO-BMFF `ftyp` box, as far as the given bytes reach (32 when sniffing: the major brand and
/// the first four compatible ones). Shared by the AVIF and HEIF plugins, which decide between them on these brands.
package struct FileTypeBox {
    package let major: String
    package let compatible: [String]

    package init?(_ data: Data) {
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

    package static let avifBrands: Set<String> = ["avif", "avis"]
    package static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    package static let structuralBrands: Set<String> = ["mif1", "msf1", "miaf"]
}
