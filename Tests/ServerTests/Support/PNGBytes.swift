import Foundation

/// PNG files written byte by byte, for layouts Imago's encoder never writes (it picks the smallest that keeps every
/// pixel): an RGBA file whose pixels are all opaque, as other tools write them.
enum PNGBytes {
    /// An 8-bit RGBA PNG of `pixels` (tightly packed RGBA), its image data in stored (uncompressed) deflate blocks.
    static func rgba(width: Int, height: Int, pixels: [UInt8]) -> Data {
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
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, body) in [("IHDR", header), ("IDAT", zlib), ("IEND", [])] {
            let typed = Array(type.utf8) + body
            file += bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed[...]))
        }
        return Data(file)
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
}
