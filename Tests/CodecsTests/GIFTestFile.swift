import Foundation

/// Builds GIF files byte by byte, for structures an encoder would not write (offsets, disposals, clipping,
/// truncation, huge screens). The LZW data uses only literal codes, with a clear code often enough that the code
/// width never grows: valid for every decoder, just not compressed.
struct GIFTestFile {
    struct Frame {
        var left = 0
        var top = 0
        var width: Int
        var height: Int
        /// One palette index per pixel, rows `width` apart.
        var indices: [UInt8]
        var disposal = 0
        var transparentIndex: UInt8?
        var delayCentiseconds = 0
        var localPalette: [[UInt8]]?
        var interlaced = false
        /// Writes the graphics control extension even without disposal, delay or transparency.
        var hasControl = true
    }

    var width: Int
    var height: Int
    /// Global palette entries, [r, g, b] each; padded to a power of two.
    var palette: [[UInt8]]
    var frames: [Frame] = []
    /// NETSCAPE2.0 repeat count, when set.
    var repeatCount: Int?

    var data: Data {
        var bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height)
        bytes += [0xF0 | tableSizeBits(palette.count), 0, 0]
        bytes += table(palette)
        if let repeatCount {
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(repeatCount) + [0]
        }
        for frame in frames {
            if frame.hasControl {
                let flags = UInt8(frame.disposal << 2) | (frame.transparentIndex == nil ? 0 : 1)
                bytes += [0x21, 0xF9, 4, flags] + le16(frame.delayCentiseconds) + [frame.transparentIndex ?? 0, 0]
            }
            bytes += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height)
            var flags: UInt8 = frame.interlaced ? 0x40 : 0
            if let local = frame.localPalette { flags |= 0x80 | tableSizeBits(local.count) }
            bytes.append(flags)
            if let local = frame.localPalette { bytes += table(local) }
            bytes += lzw(frame.interlaced ? interlace(frame) : frame.indices)
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    /// The rows of an interlaced frame in the order the file stores them.
    private func interlace(_ frame: Frame) -> [UInt8] {
        let order = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: frame.height, by: $0.1) }
        return order.flatMap { frame.indices[($0 * frame.width)..<(($0 + 1) * frame.width)] }
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    private func tableSizeBits(_ count: Int) -> UInt8 {
        var bits: UInt8 = 0
        while 2 << bits < count { bits += 1 }
        return bits
    }

    private func table(_ colors: [[UInt8]]) -> [UInt8] {
        let size = 2 << Int(tableSizeBits(colors.count))
        return (colors + Array(repeating: [0, 0, 0], count: size - colors.count)).flatMap { $0 }
    }

    /// Minimum code size 8, 9-bit literal codes, a clear code every 100 literals, then the end code.
    private func lzw(_ indices: [UInt8]) -> [UInt8] {
        var codes: [Int] = [256]
        for (offset, index) in indices.enumerated() {
            if offset > 0, offset % 100 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        codes.append(257)
        var packed: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += 9
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        var out: [UInt8] = [8]
        var start = 0
        while start < packed.count {
            let end = Swift.min(start + 255, packed.count)
            out.append(UInt8(end - start))
            out += packed[start..<end]
            start = end
        }
        out.append(0)
        return out
    }
}
