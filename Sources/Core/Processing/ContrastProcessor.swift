/// Scales every colour channel's distance from mid-grey (128), clamped: thumbor's `contrast(N)` for N in
/// −100…100, the factor `(N + 100)² / 100` percent in integers (−100: flat grey, 0: unchanged, 100: ×4). Alpha is
/// kept.
public struct ContrastProcessor: ImageProcessor {
    /// The allowed amounts.
    public static let amountRange: ClosedRange<Int> = -100...100

    /// −100…100.
    public let amount: Int

    /// Creates the processor; an amount outside −100…100 throws `processingFailed`.
    public init(amount: Int) throws {
        guard Self.amountRange.contains(amount) else {
            throw ImagoError(.processingFailed, "contrast \(amount) is not within -100…100")
        }
        self.amount = amount
    }

    /// `contrast(N)`.
    public var identifier: String { "contrast(\(amount))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard amount != 0 else { return image }
        let factor = (amount + 100) * (amount + 100) / 100
        // C's integer division truncates toward zero, as Swift's does.
        let table = (0...255).map { UInt8(min(255, max(0, factor * ($0 - 128) / 100 + 128))) }
        return try image.mappingRasters { try $0.mappingColours(through: table) }
    }
}
