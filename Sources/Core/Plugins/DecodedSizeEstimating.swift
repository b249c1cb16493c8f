import Foundation

/// A decoder that can tell from the header, before decoding, how many bytes of pixels a decode will allocate. The
/// loader admits such a decode under its pixel memory budget before it starts; a decode of another decoder is
/// charged to the budget once its image exists.
public protocol DecodedSizeEstimating: ImageDecoder {
    /// The bytes of pixels (every frame decoded) that decoding `data` with `options` allocates, read from the
    /// header only; nil when the header does not say (the data is not of this format, or is cut short).
    func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int?
}

extension DecodedSizeEstimating {
    /// `width × height × 4 × frames`, nil on overflow or an empty size.
    public static func rgbaBytes(width: Int, height: Int, frames: Int = 1) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: 4 * max(1, frames))
        return overflow || overflow2 ? nil : bytes
    }
}
