import Foundation
import ImagoCore

extension GIFCodec: AnimationInfoReading {
    /// The frames, delays and loop count from the GIF's blocks: lengths are followed, LZW data is skipped, and only
    /// counters are kept. Durations follow the decoder's rule (a delay of 0 or 1 centisecond plays for 0.1 s).
    public func animationInfo(_ data: Data, limits: DecodeLimits) throws -> AnimationInfo {
        try limits.check(byteCount: data.count)
        guard GIFCodec.hasSignature(data), data.count >= 13 else {
            throw GIFErrors.decoding("not a GIF file (no GIF87a or GIF89a signature)")
        }
        let summary = data.withUnsafeBytes { GIFStructure.summarize($0) }
        let size = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            PixelSize(width: Int(bytes[6]) | Int(bytes[7]) << 8, height: Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        try limits.check(width: size.width, height: size.height, format: .gif)
        guard summary.frames > 0 else { throw GIFErrors.decoding("the file has no image") }
        let animated = summary.frames > 1
        return AnimationInfo(
            canvasSize: size, frameCount: summary.frames, totalDuration: animated ? summary.duration : 0,
            loopCount: animated ? summary.loopCount : 0)
    }
}

/// A walk over a GIF's blocks that keeps counters only (lengths followed, no LZW decoding): the images, the sum of
/// their delays as played, and the NETSCAPE2.0 loop count (plays; 1 when absent, 0 for forever). The image count is
/// checked against the limits before the first canvas is drawn; bytes that start no block are skipped as the
/// decoder skips them, and a truncated last image counts, so it is an upper bound of the decodable frames.
enum GIFStructure {
    struct Summary {
        var frames = 0
        var duration = 0.0
        var loopCount = 1
    }

    static func summarize(_ bytes: UnsafeRawBufferPointer) -> Summary {
        var summary = Summary()
        guard bytes.count >= 13 else { return summary }
        var offset = 13 + colorTableSize(flags: bytes[10])
        var delay = 0
        var sawLoopExtension = false
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x2C:  // image descriptor: 9 bytes, an optional local colour table, the LZW code size, sub-blocks
                summary.frames += 1
                // As the decoder plays them: 0 or 1 centisecond is 0.1 s.
                summary.duration += delay <= 1 ? 0.1 : Double(delay) / 100
                delay = 0
                guard offset + 10 <= bytes.count else { return summary }
                offset += 10 + colorTableSize(flags: bytes[offset + 9]) + 1
                offset = skipSubBlocks(bytes, from: offset)
            case 0x21:  // extension: a label, then sub-blocks
                guard offset + 1 < bytes.count else { return summary }
                let label = bytes[offset + 1]
                let body = offset + 2
                if label == 0xF9, body + 4 < bytes.count, bytes[body] >= 4 {
                    delay = Int(bytes[body + 2]) | Int(bytes[body + 3]) << 8
                } else if label == 0xFF, !sawLoopExtension, let loops = loopCount(bytes, at: body) {
                    // The first loop extension counts, as in the decoder.
                    summary.loopCount = loops
                    sawLoopExtension = true
                }
                offset = skipSubBlocks(bytes, from: body)
            case 0x3B:  // the trailer
                return summary
            default:  // a byte that starts no block: skipped, as the decoder skips it
                offset += 1
            }
        }
        return summary
    }

    /// The plays a NETSCAPE2.0 (or ANIMEXTS1.0) block at `offset` gives: repeat count + 1, 0 for forever.
    private static func loopCount(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard offset + 16 < bytes.count, bytes[offset] == 11 else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset + 1..<offset + 12]), as: UTF8.self)
        guard name == "NETSCAPE2.0" || name == "ANIMEXTS1.0", bytes[offset + 12] >= 3, bytes[offset + 13] == 1
        else { return nil }
        let repeats = Int(bytes[offset + 14]) | Int(bytes[offset + 15]) << 8
        return repeats == 0 ? 0 : repeats + 1
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
