/// Mirrors every frame: left to right, top to bottom, or both (a half turn).
public struct FlipProcessor: ImageProcessor {
    /// Which way.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// Left and right swap.
        case horizontal = "h"
        /// Top and bottom swap.
        case vertical = "v"
        /// Both (the same pixels as a 180° rotation).
        case both = "hv"
    }

    /// Which way.
    public var direction: Direction

    /// Creates a flip.
    public init(_ direction: Direction) {
        self.direction = direction
    }

    /// `flip(h)`, `flip(v)` or `flip(hv)`.
    public var identifier: String { "flip(\(direction.rawValue))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        let orientation: ImageOrientation =
            switch direction {
            case .horizontal: .upMirrored
            case .vertical: .downMirrored
            case .both: .down
            }
        return try image.mappingRasters { try $0.oriented(orientation) }
    }
}
