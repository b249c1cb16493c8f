import Foundation

/// A decoder that can tell from the header, before decoding, how many bytes of pixels a decode will allocate. The
/// loader admits such a decode under its pixel memory budget before it starts; a decode of another decoder is
/// charged to the budget once its image exists.
public protocol DecodedSizeEstimating: ImageDecoder {
    /// The bytes of pixels (every frame decoded) that decoding `data` with `options` allocates, read from the
    /// header only; nil when the header does not say (the data is not of this format, or is cut short).
    func decodedByteCount(_ data: Data, options: DecodeOptions) -> Int?

    /// What decoding `data` with `options` gives, read from the header only: each frame's size as stored (after
    /// any reduced-scale decode), the EXIF orientation, the frames; nil when the header does not say. A render
    /// predicts its output from it and reserves all its memory before it starts.
    func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry?
}

extension DecodedSizeEstimating {
    /// Not known: the render charges the decode once it exists.
    public func decodedGeometry(_ data: Data, options: DecodeOptions) -> DecodedGeometry? { nil }
}

/// The geometry of a decode, read from the header.
public struct DecodedGeometry: Sendable, Hashable {
    /// Each frame's size as stored (after a reduced-scale decode).
    public var size: PixelSize
    /// The EXIF orientation the file gives (not applied to `size`).
    public var orientation: ImageOrientation
    /// The frames decoded.
    public var frames: Int

    /// A geometry.
    public init(size: PixelSize, orientation: ImageOrientation = .up, frames: Int = 1) {
        self.size = size
        self.orientation = orientation
        self.frames = frames
    }

    /// The size shown upright (width and height swapped for orientations 5–8).
    public var upright: PixelSize {
        orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The bytes of every frame's pixels, nil on overflow or an empty size.
    public var byteCount: Int? {
        guard size.width > 0, size.height > 0 else { return nil }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: 4 * max(1, frames))
        return overflow || overflow2 ? nil : bytes
    }
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
