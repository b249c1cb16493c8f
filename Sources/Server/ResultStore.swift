import Foundation
import Imago

/// Finished responses shared by the processes of a fleet (`serve.resultStore`), in any data cache: `disk`,
/// `redis`, `s3`, `tiered`, a user's own.
///
/// Each entry is self-checking whatever the cache does: a magic line, a JSON head naming the full request key,
/// the content type, ETag and `Last-Modified`, then the body, whose xxHash64 must equal the ETag. An entry that
/// is truncated, fails its hash, or was written for another key (a hash collision, another program's value) is a
/// miss and is removed; so is an expired one.
final class ResultStore: Sendable {
    let cache: any DataCache
    private let fleet: ServeFleet
    private static let magic = Data("imago-result/1\n".utf8)
    /// Key prefix in the data cache, so results and source bytes can share one cache without meeting.
    static let keyPrefix = "serve-result/1|"

    private struct Head: Codable {
        var key: String
        var contentType: String
        var etag: String
        var lastModified: String?
        var bodyBytes: Int
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
            bodyBytes: image.body.count)
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
        return RenderedImage(
            body: body, contentType: head.contentType, etag: head.etag, sourceOrigin: "store",
            lastModified: head.lastModified)
    }
}
