/// A processor that can say how large the decoded image must be for its result to be as sharp as from the full
/// image, so the loader lets the decoder work at a reduced scale (JPEG's 1/2, 1/4, 1/8; WebP's scaling).
///
/// The loader walks the request's processors in order: those that need `.anySize` are passed over, the first
/// that needs `.covering(size)` sets the target (the decoded image covers it, as under `.fill`), and one that needs
/// `.fullSize` (or does not adopt this protocol) stops the walk with no target.
public protocol SizeAwareProcessor: ImageProcessor {
    /// The decoded size this processor needs from its input.
    var decodeSizeNeed: DecodeSizeNeed { get }
}

/// How large an image a processor needs from the decoder.
public enum DecodeSizeNeed: Sendable, Hashable {
    /// Any size: the processor does not depend on the pixel geometry (a colour change, orientation).
    case anySize
    /// At least this size under `.fill`: a reduced decode covering it loses nothing.
    case covering(PixelSize)
    /// The full decoded size (a crop by pixel coordinates).
    case fullSize

    /// The target size `processors`, run in order, allow the decoder, or `nil` for a full-size decode.
    static func target(of processors: [any ImageProcessor]) -> PixelSize? {
        for processor in processors {
            guard let aware = processor as? any SizeAwareProcessor else { return nil }
            switch aware.decodeSizeNeed {
            case .anySize: continue
            case .covering(let size): return size
            case .fullSize: return nil
            }
        }
        return nil
    }
}
