/// Turns every frame clockwise by a quarter, half or three quarters of a turn (after orientation: the pixels as
/// they arrive are turned).
public struct RotateProcessor: ImageProcessor {
    /// The clockwise turns.
    public enum Angle: Int, Sendable, Hashable, CaseIterable {
        case degrees90 = 90, degrees180 = 180, degrees270 = 270
    }

    /// The clockwise angle.
    public var angle: Angle

    /// Creates a rotation by `angle`.
    public init(_ angle: Angle) {
        self.angle = angle
    }

    /// Creates a rotation by `degrees` clockwise: 90, 180 or 270 (0 and 360 are refused too: no work is no
    /// processor); anything else throws `processingFailed`.
    public init(degrees: Int) throws {
        guard let angle = Angle(rawValue: degrees) else {
            throw ImagoError(.processingFailed, "rotation by \(degrees)° (only 90, 180 and 270)")
        }
        self.angle = angle
    }

    /// `rotate(90)`, `rotate(180)` or `rotate(270)`.
    public var identifier: String { "rotate(\(angle.rawValue))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        // The EXIF orientation whose display turns the stored pixels the same way.
        let orientation: ImageOrientation =
            switch angle {
            case .degrees90: .right
            case .degrees180: .down
            case .degrees270: .left
            }
        return try image.mappingRasters { try $0.oriented(orientation) }
    }
}
