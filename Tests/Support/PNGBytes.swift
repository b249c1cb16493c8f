import Foundation

/// PNG files written or patched byte by byte, for layouts Imago's encoder never writes: an RGBA file whose pixels are
/// all opaque (as other tools write them), a header that declares a size the data does not have, chunks of any type.
public enum PNGBytes {
    /// The 8-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An 8-bit RGBA PNG of `pixels` (tightly packed RGBA), its image data in stored (uncompressed) deflate blocks.
    public static func rgba(width: Int, height: Int, pixels: [UInt8]) -> Data {
        var scanlines: [UInt8] = []
        for row in 0..<height {
            scanlines.append(0)  // filter: none
            scanlines += pixels[(row * width * 4)..<((row + 1) * width * 4)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, scanlines.count - start)
            let last: UInt8 = start + count == scanlines.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += scanlines[start..<(start + count)]
            start += count
        } while start < scanlines.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in scanlines { (a, b) = ((a + UInt32(byte)) % 65_521, (b + (a + UInt32(byte)) % 65_521) % 65_521) }
        zlib += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return Data(signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// `png` with its IHDR declaring `width` × `height` (its CRC made right, so only a size limit can refuse it).
    public static func declaringSize(_ png: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](png)
        bytes.replaceSubrange(16..<20, with: bigEndian(UInt32(width)))
        bytes.replaceSubrange(20..<24, with: bigEndian(UInt32(height)))
        bytes.replaceSubrange(29..<33, with: bigEndian(crc32(bytes[12..<29])))
        return Data(bytes)
    }

    /// A PNG chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// CRC-32 (ISO-HDLC), as PNG chunks use.
    public static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `value`'s four bytes, most significant first.
    public static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
}
