/// Why a perceptual measurement, a quality search or a best-format choice cannot run: bad arguments a caller (or a
/// request) passed, reported before any encode. A server answers these with 400 and the `reason`.
public struct QualityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a program to switch on.
    public enum Kind: String, Sendable, Hashable {
        /// The two images compared are not the same size.
        case sizeMismatch
        /// An image is smaller than the metric's 11×11 window.
        case imageTooSmall
        /// The DSSIM target is not in (0, 1).
        case invalidTarget
        /// The quality bounds are outside 1...100 or the minimum is above the maximum.
        case invalidQualityRange
        /// The format has no quality setting (PNG, GIF): there is nothing to search.
        case noQualitySetting
        /// A best-format choice was given no candidate format.
        case noCandidates
    }

    /// What is wrong.
    public var kind: Kind
    /// A sentence for the user, naming the values given.
    public var reason: String

    /// Creates an error.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
