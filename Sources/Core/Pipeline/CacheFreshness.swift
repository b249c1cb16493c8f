import Foundation

/// The loader's reading of HTTP caching headers: whether a response may be stored and until when it is fresh.
///
/// A minimal private version so the loader does not wait for the caches' `HTTPFreshness`; it understands
/// `Cache-Control` (`no-store`, `no-cache`, `max-age`, `s-maxage` ignored), `Expires` and `Date`.
enum CacheFreshness {
    /// The metadata to store with a response's bytes, or `nil` when the response says `no-store`.
    static func metadata(for response: TransportMetadata, now: Date = Date()) -> CacheMetadata? {
        let directives = self.directives(response.cacheControl)
        if directives["no-store"] != nil { return nil }
        return CacheMetadata(
            etag: response.etag, lastModified: response.lastModified, expires: expiry(response, directives, now: now),
            storedAt: now, contentType: response.contentType)
    }

    /// The metadata of a cached entry after a `304 Not Modified` answered its revalidation.
    static func refreshed(_ metadata: CacheMetadata, by response: TransportMetadata, now: Date = Date())
        -> CacheMetadata
    {
        var refreshed = metadata
        refreshed.etag = response.etag ?? metadata.etag
        refreshed.lastModified = response.lastModified ?? metadata.lastModified
        refreshed.expires = expiry(response, directives(response.cacheControl), now: now)
        refreshed.storedAt = now
        return refreshed
    }

    private static func expiry(_ response: TransportMetadata, _ directives: [String: String], now: Date) -> Date? {
        // Stale at once: served only after revalidation (or refetched when it has no validators).
        if directives["no-cache"] != nil { return now }
        if let maxAge = directives["max-age"].flatMap(Double.init) { return now.addingTimeInterval(max(0, maxAge)) }
        if let expires = response.expires {
            guard let date = httpDate(expires) else { return now }  // an invalid Expires means already expired
            let serverNow = response.date.flatMap(httpDate) ?? now
            return now.addingTimeInterval(date.timeIntervalSince(serverNow))
        }
        return nil
    }

    private static func directives(_ header: String?) -> [String: String] {
        var result: [String: String] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else {
                continue
            }
            let value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            result[name] = value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return result
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
