/// Adds a percentage of full scale to each colour channel, clamped: thumbor's `rgb(R,G,B)` (each −100…100,
/// `255 * N / 100` in integers). `brightness(N)` is the same shift on all three. Alpha is kept.
public struct ChannelShiftProcessor: ImageProcessor {
    /// The allowed percentages (larger ones saturate as ±100 does).
    public static let amountRange: ClosedRange<Int> = -100...100

    /// Percent of full scale added to red, green and blue.
    public let red: Int, green: Int, blue: Int

    /// Creates the processor; an amount outside −100…100 throws `processingFailed`.
    public init(red: Int, green: Int, blue: Int) throws {
        for amount in [red, green, blue] where !Self.amountRange.contains(amount) {
            throw ImagoError(.processingFailed, "rgb \(red),\(green),\(blue): \(amount) is not within -100…100")
        }
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// `rgb(R,G,B)`.
    public var identifier: String { "rgb(\(red),\(green),\(blue))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard red != 0 || green != 0 || blue != 0 else { return image }
        let tables = [red, green, blue].map { amount in
            (0...255).map { UInt8(clamping: $0 + 255 * amount / 100) }
        }
        return try image.mappingRasters { raster in
            try raster.mappingColours(through: tables)
        }
    }
}

extension ChannelShiftProcessor: FrameWiseProcessing {
    /// Always: each frame is mapped alike.
    public var processesFramesIndependently: Bool { true }
}
