/// Counts a GIF's images by walking its block structure (lengths only, no LZW decoding), so an animation's
/// frame count and total pixels can be checked against the limits before the first canvas is drawn.
enum GIFImageCounter {
    /// The number of image descriptors before the trailer or the end of the data, skipping bytes that start no
    /// block as the decoder does (a truncated last image counts, so the count is an upper bound of the decodable
    /// frames).
    static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 13 else { return 0 }
        var offset = 13 + colorTableSize(flags: bytes[10])
        var images = 0
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:  // image descriptor: 9 bytes, an optional local colour table, the LZW code size, sub-blocks
                guard offset + 10 <= bytes.count else { return images + 1 }
                images += 1
                offset += 10 + colorTableSize(flags: bytes[offset + 9]) + 1
                offset = skipSubBlocks(bytes, from: offset)
            case 0x21:  // extension: a label, then sub-blocks
                offset = skipSubBlocks(bytes, from: offset + 2)
            case 0x3B:  // the trailer
                return images
            default:  // a byte that starts no block: skipped, as the decoder skips it
                offset += 1
            }
        }
        return images
    }

    private static func colorTableSize(flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// The offset after a run of sub-blocks (each a length byte and that many bytes, ended by a zero length).
    private static func skipSubBlocks(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var offset = start
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            if length == 0 { return offset }
            offset += length
        }
        return bytes.count
    }
}
