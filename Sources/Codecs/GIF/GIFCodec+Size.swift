import Foundation
import ImagoCore

extension GIFCodec: DecodedSizeEstimating {
    /// The logical screen (bytes 6-9, little-endian) times the images the block structure holds (one when only the
    /// first frame is asked for): every frame is a full composited canvas.
    public func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int? {
        decodedGeometry(data, options: options)?.byteCount
    }

    /// The logical screen and the frames decoded.
    public func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry? {
        guard data.count >= 13, canDecode(data) else { return nil }
        let header = [UInt8](data.prefix(10))
        let width = Int(header[6]) | Int(header[7]) << 8
        let height = Int(header[8]) | Int(header[9]) << 8
        let frames = options.frames == .first ? 1 : data.withUnsafeBytes { GIFStructure.summarize($0).frames }
        return DecodedGeometry(size: PixelSize(width: width, height: height), frames: max(1, frames))
    }
}
