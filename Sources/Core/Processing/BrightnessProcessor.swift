/// Adds `amount` percent of full scale (−100…100) to every colour channel, clamped: thumbor's `brightness(N)`
/// (`255 * N / 100` in integers, added to R, G and B). Alpha is kept.
public struct BrightnessProcessor: ImageProcessor {
    /// The allowed amounts.
    public static let amountRange: ClosedRange<Int> = -100...100

    /// Percent of full scale added (negative darkens).
    public let amount: Int

    /// Creates the processor; an amount outside −100…100 throws `processingFailed`.
    public init(amount: Int) throws {
        guard Self.amountRange.contains(amount) else {
            throw ImagoError(.processingFailed, "brightness \(amount) is not within -100…100")
        }
        self.amount = amount
    }

    /// `brightness(N)`.
    public var identifier: String { "brightness(\(amount))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard amount != 0 else { return image }
        let delta = 255 * amount / 100
        let table = (0...255).map { UInt8(min(255, max(0, $0 + delta))) }
        return try image.mappingRasters { try $0.mappingColours(through: table) }
    }
}
