/// The settings of `q=auto`: the lowest quality whose output is within a DSSIM `target` of the image before
/// encoding, searched between `minQuality` and `maxQuality` in at most `maxEncodes` encodes (see `QualitySearch`).
public struct AutoQuality: Sendable, Hashable, Codable {
    /// The default target, one for every format: on the server benchmark's photo set (fitted into 512×512 and at
    /// full size), the median DSSIM of `q=auto`'s JPEG outputs equals that of JPEG at quality 80 (0.0205 against
    /// 0.0204; Docs/Quality.md says how it was found).
    public static let defaultTarget = 0.021
    /// The most encodes a search may make by default.
    public static let defaultMaxEncodes = 4

    /// The DSSIM the output must not exceed, in (0, 1).
    public var target: Double
    /// The lowest quality the search may answer (default 30).
    public var minQuality: Int
    /// The highest quality the search may answer (default 95).
    public var maxQuality: Int
    /// The most encodes one search may make (default 4), at least 1.
    public var maxEncodes: Int

    /// Creates settings; `validate()` says whether they can be searched.
    public init(
        target: Double = AutoQuality.defaultTarget, minQuality: Int = 30, maxQuality: Int = 95,
        maxEncodes: Int = AutoQuality.defaultMaxEncodes
    ) {
        self.target = target
        self.minQuality = minQuality
        self.maxQuality = maxQuality
        self.maxEncodes = maxEncodes
    }

    /// Throws `QualityError` (`invalidTarget`, `invalidQualityRange`) when the target is not in (0, 1), the
    /// qualities are not in 1...100 with the minimum at most the maximum, or `maxEncodes` is under 1.
    public func validate() throws {
        guard target > 0, target < 1 else {
            throw QualityError(.invalidTarget, "the DSSIM target must be between 0 and 1 (exclusive), not \(target)")
        }
        guard (1...100).contains(minQuality), (1...100).contains(maxQuality), minQuality <= maxQuality else {
            throw QualityError(
                .invalidQualityRange,
                "the quality range \(minQuality)...\(maxQuality) must lie within 1...100, minimum first")
        }
        guard maxEncodes >= 1 else {
            throw QualityError(.invalidQualityRange, "a quality search needs at least 1 encode, not \(maxEncodes)")
        }
    }
}
