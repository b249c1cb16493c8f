import Foundation
import ImagoCore

extension PNGCodec: DecodedSizeEstimating {
    /// From IHDR (bytes 16-23, right after the signature and the chunk's length and type); PNG decodes at full size.
    public func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        decodedGeometry(data, options: options)?.byteCount
    }

    /// IHDR's size (PNG has no EXIF orientation the decoder applies).
    public func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry? {
        guard data.count >= 24, canDecode(data) else { return nil }
        let bytes = [UInt8](data.prefix(24))
        guard bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return DecodedGeometry(size: PixelSize(width: bigEndian(16), height: bigEndian(20)))
    }
}
