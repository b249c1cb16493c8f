import Foundation
import Synchronization

/// A finished image response: what the result cache keeps and identical requests share.
public struct RenderedImage: Sendable {
    /// The encoded image.
    public var body: Data
    /// Its MIME type.
    public var contentType: String
    /// A strong entity tag derived from the bytes: it changes when they change.
    public var etag: String
    /// Where the source came from (`memory`, `disk`, `network`), for the access log.
    public var sourceOrigin: String
    /// The source's `Last-Modified`, passed on.
    public var lastModified: String?
    /// The status (200; `fallbackStatus` for a fallback image).
    public var status = 200
    /// `Cache-Control: max-age` when not the configured one (a fallback image's).
    public var maxAge: Int?
    /// What `q=auto` or `f=best` decided, sent as `Imago-Quality`; nil for a fixed quality.
    public var quality: QualityDecision?
    /// Whether the body is the source's own bytes (`raw`, `skp`), answered unprocessed and not kept as a result.
    var isSource = false

    /// A rendered image.
    public init(
        body: Data, contentType: String, etag: String, sourceOrigin: String, lastModified: String? = nil
    ) {
        self.body = body
        self.contentType = contentType
        self.etag = etag
        self.sourceOrigin = sourceOrigin
        self.lastModified = lastModified
    }

    /// The strong entity tag of `body`: its 64-bit xxHash, quoted. Not a cryptographic hash: it only has to change
    /// when the bytes do, and it costs a hundredth of SHA-256 on every output (issue 28's profile).
    public static func etag(for body: Data) -> String {
        let hex = String(body.withUnsafeBytes { XXHash64.hash($0) }, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}

/// Finished responses in memory, least recently used evicted first, bounded by their bytes.
final class ResultCache: Sendable {
    private struct Entry {
        var image: RenderedImage
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// Most bytes kept (bodies plus a small per-entry overhead).
    let capacity: Int
    private let state = Mutex(State())
    private static let overhead = 256

    init(capacity: Int) { self.capacity = capacity }

    /// The response kept for `key`, marked as just used.
    func image(for key: String) -> RenderedImage? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.image
        }
    }

    /// Keeps `image` for `key`, evicting the least recently used until it fits; one larger than the whole cache
    /// is not kept.
    func store(_ image: RenderedImage, for key: String) {
        let cost = image.body.count + key.utf8.count + Self.overhead
        guard cost <= capacity else { return }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.image.body.count + key.utf8.count + Self.overhead
            }
            while state.bytes + cost > capacity,
                let victim = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries.removeValue(forKey: victim.key)
                state.bytes -= victim.value.image.body.count + victim.key.utf8.count + Self.overhead
            }
            state.clock += 1
            state.entries[key] = Entry(image: image, lastUse: state.clock)
            state.bytes += cost
        }
    }

    /// Bytes kept now.
    var bytes: Int { state.withLock { $0.bytes } }
    /// Entries kept now.
    var count: Int { state.withLock { $0.entries.count } }
}
