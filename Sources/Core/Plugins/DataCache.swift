import Foundation

/// Keeps encoded bytes, with the HTTP metadata needed to know when they are fresh.
///
/// A damaged or foreign entry must read as a miss, never as wrong bytes. Methods are `async` so that an
/// implementation may do its I/O off the caller's thread.
public protocol DataCache: Sendable {
    /// The entry for `key`, or `nil` for a miss (including a damaged entry, which is removed).
    func entry(for key: CacheKey) async -> DataCacheEntry?
    /// Stores `entry` for `key`, replacing any older one. Throws `cacheFailed` when it cannot be written.
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws
    /// Removes the entry for `key`.
    func removeEntry(for key: CacheKey) async
    /// Removes every entry.
    func removeAll() async

    /// The entry for `key`, reporting to `failures` a read that failed (and is answered as a miss) rather than
    /// only returning `nil`; the loader calls this one. Implement it when reads can fail (a network cache, tiers).
    func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry?

    /// The longest time, in seconds, an answer without freshness information is reused before revalidating:
    /// 10% of its `Last-Modified` age at most this, or this when it has no `Last-Modified` (604800 s, 7 days,
    /// unless the cache is configured otherwise).
    var defaultMaxAge: Double { get }
}

/// Encoded bytes and their metadata.
public struct DataCacheEntry: Sendable, Hashable {
    /// The bytes.
    public var data: Data
    /// When and how they may be reused.
    public var metadata: CacheMetadata
    /// The name of the cache layer that answered a read (`disk`, `redis`), for reports such as the `--json`
    /// line's `cache`; `nil` when the cache does not say. Not stored, and not part of equality.
    public var layer: String?

    /// Creates an entry.
    public init(data: Data, metadata: CacheMetadata = CacheMetadata(), layer: String? = nil) {
        self.data = data
        self.metadata = metadata
        self.layer = layer
    }

    public static func == (lhs: DataCacheEntry, rhs: DataCacheEntry) -> Bool {
        lhs.data == rhs.data && lhs.metadata == rhs.metadata
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(metadata)
    }
}

/// What a cache keeps beside the bytes to decide freshness and revalidate.
public struct CacheMetadata: Sendable, Hashable, Codable {
    /// The `ETag` of the response, for `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` of the response, for `If-Modified-Since`.
    public var lastModified: String?
    /// Until when the bytes are fresh; `nil` means no freshness information, so they must be revalidated
    /// when they carry validators, and are served as they are when they carry none.
    public var expires: Date?
    /// When the entry was stored.
    public var storedAt: Date
    /// The media type, when known.
    public var contentType: String?

    /// Creates metadata.
    public init(
        etag: String? = nil, lastModified: String? = nil, expires: Date? = nil, storedAt: Date = Date(),
        contentType: String? = nil
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.expires = expires
        self.storedAt = storedAt
        self.contentType = contentType
    }

    /// The longest heuristic freshness, in seconds, unless a cache is configured otherwise: 7 days (as Kingfisher
    /// and SDWebImage keep images).
    public static let standardDefaultMaxAge: Double = 604_800

    /// Whether the bytes may be served without asking the origin.
    public func isFresh(at now: Date = Date()) -> Bool {
        if let expires { return now < expires }
        return etag == nil && lastModified == nil
    }

    /// Whether the entry can be revalidated with a conditional request.
    public var canRevalidate: Bool { etag != nil || lastModified != nil }
}

/// Where a data cache reports a failure it recovers from (a read that failed and is answered as a miss, a tier
/// that could not be written), so the loader shows it as an event (`dataCacheReadFailed`).
public struct CacheFailureReporter: Sendable {
    private let body: @Sendable (ImagoError) -> Void

    /// Creates a reporter calling `body` for each failure.
    public init(_ body: @escaping @Sendable (ImagoError) -> Void) { self.body = body }

    /// Reports `error`.
    public func report(_ error: ImagoError) { body(error) }

    /// A reporter that drops every failure.
    public static let ignoring = CacheFailureReporter { _ in }
}

extension DataCache {
    /// By default a cache reports nothing: its `entry(for:)` is asked.
    public func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        await entry(for: key)
    }

    /// By default, answers without a Last-Modified or any freshness information are fresh for 7 days.
    public var defaultMaxAge: Double { CacheMetadata.standardDefaultMaxAge }
}
