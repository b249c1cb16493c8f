import Foundation
import Imago

/// Finished responses shared by the processes of a fleet (`serve.resultStore`), in any data cache: `disk`,
/// `redis`, `s3`, `tiered`, a user's own.
///
/// Each entry is self-checking whatever the cache does: a magic line, a JSON head naming the full request key,
/// the content type, ETag and `Last-Modified`, then the body, whose xxHash64 must equal the ETag. An entry that
/// is truncated, fails its hash, or was written for another key (a hash collision, another program's value) is a
/// miss and is removed; so is an expired one.
///
/// Beside each result of `q=auto` or `f=best` it keeps the decision (format, quality, DSSIM) under its own key,
/// self-checking the same way (the decision's JSON hashed), for `decisionLifetime`: a later render of the key, once
/// the result has expired or been evicted, encodes once at the known quality instead of searching.
final class ResultStore: Sendable {
    let cache: any DataCache
    private let fleet: ServeFleet
    private static let magic = Data("imago-result/1\n".utf8)
    /// Key prefix in the data cache, so results and source bytes can share one cache without meeting.
    static let keyPrefix = "serve-result/1|"
    static let decisionPrefix = "serve-decision/1|"
    private static let decisionMagic = Data("imago-decision/1\n".utf8)
    /// How long a decision is kept: it depends on the source's pixels and the options only, and a render at a
    /// known quality measures its output again.
    static let decisionLifetime: TimeInterval = 30 * 86_400

    private struct Head: Codable {
        var key: String
        var contentType: String
        var etag: String
        var lastModified: String?
        var bodyBytes: Int
        var quality: QualityDecision?
    }

    private struct DecisionEntry: Codable {
        var key: String
        var decision: QualityDecision
    }

    init(cache: any DataCache, fleet: ServeFleet) {
        self.cache = cache
        self.fleet = fleet
    }

    /// The response stored for the request `key`, checked; `nil` for a miss, a failure, or a bad entry.
    func image(for key: String) async -> RenderedImage? {
        let cacheKey = CacheKey(Self.keyPrefix + key)
        let failures = CacheFailureReporter { [fleet] _ in fleet.recordError(store: "results", op: "get") }
        guard let entry = await cache.entry(for: cacheKey, reporting: failures) else { return nil }
        guard entry.metadata.isFresh(at: Date()), let image = Self.decode(entry.data, key: key) else {
            await cache.removeEntry(for: cacheKey)
            return nil
        }
        return image
    }

    /// Stores `image` (a 200) for `key` until `expires`; a failure is counted, never thrown.
    func store(_ image: RenderedImage, for key: String, expires: Date) async {
        guard image.status == 200, image.maxAge == nil else { return }
        let metadata = CacheMetadata(
            etag: image.etag, lastModified: image.lastModified, expires: expires, contentType: image.contentType)
        do {
            try await cache.store(
                DataCacheEntry(data: Self.encode(image, key: key), metadata: metadata),
                for: CacheKey(Self.keyPrefix + key))
        } catch {
            fleet.recordError(store: "results", op: "put")
        }
    }

    static func encode(_ image: RenderedImage, key: String) -> Data {
        let head = Head(
            key: key, contentType: image.contentType, etag: image.etag, lastModified: image.lastModified,
            bodyBytes: image.body.count, quality: image.quality)
        // A struct of strings and an integer always encodes.
        let json = (try? JSONEncoder().encode(head)) ?? Data()
        var data = magic
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(image.body)
        return data
    }

    /// The image in `data` if it is whole, was stored for `key`, and its body hashes to its ETag.
    static func decode(_ data: Data, key: String) -> RenderedImage? {
        // Read in place (`data` may be a slice): only the body is copied out.
        guard data.count >= magic.count + 4, data.starts(with: magic) else { return nil }
        let lengthAt = data.startIndex + magic.count
        let length = data[lengthAt..<lengthAt + 4].reduce(0) { $0 << 8 | Int($1) }
        let headAt = lengthAt + 4
        guard length <= data.endIndex - headAt else { return nil }
        let bodyAt = headAt + length
        guard let head = try? JSONDecoder().decode(Head.self, from: data[headAt..<bodyAt]),
            head.key == key, head.bodyBytes == data.endIndex - bodyAt
        else { return nil }
        let body = Data(data[bodyAt...])
        guard RenderedImage.etag(for: body) == head.etag else { return nil }
        var image = RenderedImage(
            body: body, contentType: head.contentType, etag: head.etag, sourceOrigin: "store",
            lastModified: head.lastModified)
        image.quality = head.quality
        return image
    }

    /// The decision stored for the request `key`, checked; nil for a miss, a failure or a bad entry (removed).
    func decision(for key: String) async -> QualityDecision? {
        let cacheKey = CacheKey(Self.decisionPrefix + key)
        let failures = CacheFailureReporter { [fleet] _ in fleet.recordError(store: "results", op: "get") }
        guard let entry = await cache.entry(for: cacheKey, reporting: failures) else { return nil }
        guard entry.metadata.isFresh(at: Date()), let decision = Self.decodeDecision(entry.data, key: key) else {
            await cache.removeEntry(for: cacheKey)
            return nil
        }
        return decision
    }

    /// Stores `decision` for `key`; a failure is counted, never thrown.
    func store(_ decision: QualityDecision, for key: String) async {
        let metadata = CacheMetadata(expires: Date().addingTimeInterval(Self.decisionLifetime))
        do {
            try await cache.store(
                DataCacheEntry(data: Self.encode(decision, key: key), metadata: metadata),
                for: CacheKey(Self.decisionPrefix + key))
        } catch {
            fleet.recordError(store: "results", op: "put")
        }
    }

    /// A magic line, the hash of the JSON (as an ETag is written) on a line, then the JSON.
    static func encode(_ decision: QualityDecision, key: String) -> Data {
        // Strings and numbers always encode.
        let json = (try? JSONEncoder().encode(DecisionEntry(key: key, decision: decision))) ?? Data()
        return decisionMagic + Data((RenderedImage.etag(for: json) + "\n").utf8) + json
    }

    /// The decision in `data` if it is whole, its JSON hashes to the hash written, and it was stored for `key`.
    static func decodeDecision(_ data: Data, key: String) -> QualityDecision? {
        guard data.starts(with: decisionMagic) else { return nil }
        let rest = data[(data.startIndex + decisionMagic.count)...]
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let json = Data(rest[(newline + 1)...])
        guard String(decoding: rest[..<newline], as: UTF8.self) == RenderedImage.etag(for: json),
            let entry = try? JSONDecoder().decode(DecisionEntry.self, from: json), entry.key == key
        else { return nil }
        return entry.decision
    }
}
