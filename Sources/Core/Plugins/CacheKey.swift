/// The key of a cache entry.
public struct CacheKey: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key's text: the source, plus processing for image keys.
    public let rawValue: String

    /// Creates a key.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}
