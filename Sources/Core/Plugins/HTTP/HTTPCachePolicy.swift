import Foundation

/// HTTP caching (RFC 9111) for a private cache, as the HTTP transports supply it (`ImageTransport.cachePolicy`):
/// what a response says about whether and how long its bytes may be reused.
public struct HTTPCachePolicy: TransportCachePolicy {
    /// Creates the policy.
    public init() {}

    public func metadata(for response: TransportMetadata, defaultMaxAge: Double, now: Date) -> CacheMetadata? {
        CacheMetadata(response: response, now: now, defaultMaxAge: defaultMaxAge)
    }

    public func refreshed(_ metadata: CacheMetadata, by response: TransportMetadata, now: Date) -> CacheMetadata {
        metadata.refreshed(by: response, now: now)
    }
}

extension CacheMetadata {
    /// The metadata to store with an HTTP response's bytes, or `nil` when they must not be stored.
    ///
    /// `nil` for `Cache-Control: no-store` and for statuses other than 2xx (206 included: a part is not the
    /// whole). Freshness comes from `max-age`, else `Expires` (relative to `Date`), minus the response's apparent
    /// age (`now - Date`); `no-cache` makes the bytes stale at once (revalidated before every use). `s-maxage`
    /// concerns shared caches and is ignored. With no freshness information the lifetime is heuristic
    /// (RFC 9111 §4.2.2): 10% of the time since `Last-Modified`, at most `defaultMaxAge`, or `defaultMaxAge`
    /// without a `Last-Modified`. An invalid `Expires` (such as `0`) means already expired.
    public init?(
        response: TransportMetadata, now: Date = Date(), defaultMaxAge: Double = CacheMetadata.standardDefaultMaxAge
    ) {
        if let status = response.statusCode, !(200..<300).contains(status) || status == 206 { return nil }
        let control = CacheControl(parsing: response.cacheControl ?? "")
        if control.noStore { return nil }
        let expires =
            Self.expiry(of: response, control: control, now: now)
            ?? Self.heuristicExpiry(of: response, defaultMaxAge: defaultMaxAge, now: now)
        self.init(
            etag: response.etag, lastModified: response.lastModified, expires: expires, storedAt: now,
            contentType: response.contentType)
    }

    /// 10% of the `Last-Modified` age (counted from `Date`, else now), at most `defaultMaxAge`, less the apparent
    /// age; `defaultMaxAge` when there is no valid `Last-Modified`.
    private static func heuristicExpiry(of response: TransportMetadata, defaultMaxAge: Double, now: Date) -> Date {
        let cap = max(0, defaultMaxAge)
        let date = response.date.flatMap(HTTPDate.parse)
        guard let lastModified = response.lastModified.flatMap(HTTPDate.parse) else {
            return now.addingTimeInterval(cap)
        }
        let base = date ?? now
        let lifetime = min(cap, max(0, base.timeIntervalSince(lastModified)) * 0.1)
        let age = date.map { max(0, now.timeIntervalSince($0)) } ?? 0
        return now.addingTimeInterval(max(0, lifetime - age))
    }

    /// The metadata after a `304 Not Modified` answered a revalidation: stored again at `now`, with the
    /// validators and freshness the 304 carries, keeping the old ones it does not mention.
    ///
    /// When the 304 has no `Cache-Control` or `Expires`, the entry gets its old freshness lifetime again. A 304
    /// saying `no-store` leaves the entry stale, so it is revalidated next time.
    public func refreshed(by response: TransportMetadata, now: Date = Date()) -> CacheMetadata {
        var refreshed = self
        refreshed.storedAt = now
        if let etag = response.etag { refreshed.etag = etag }
        if let lastModified = response.lastModified { refreshed.lastModified = lastModified }
        if let contentType = response.contentType { refreshed.contentType = contentType }
        let control = CacheControl(parsing: response.cacheControl ?? "")
        if control.noStore {
            refreshed.expires = now
        } else if response.cacheControl != nil || response.expires != nil {
            refreshed.expires = Self.expiry(of: response, control: control, now: now)
        } else if let expires {
            refreshed.expires = now.addingTimeInterval(max(0, expires.timeIntervalSince(storedAt)))
        }
        return refreshed
    }

    private static func expiry(of response: TransportMetadata, control: CacheControl, now: Date) -> Date? {
        if control.noCache { return now }
        let date = response.date.flatMap(HTTPDate.parse)
        let age = date.map { max(0, now.timeIntervalSince($0)) } ?? 0
        if let maxAge = control.maxAge {
            return now.addingTimeInterval(max(0, Double(maxAge) - age))
        }
        guard let expiresHeader = response.expires else { return nil }
        guard let expires = HTTPDate.parse(expiresHeader) else { return now }
        guard let date else { return expires }
        return now.addingTimeInterval(max(0, expires.timeIntervalSince(date) - age))
    }
}

extension TransportRequest {
    /// This request made conditional on a cached entry's validators (`If-None-Match`, `If-Modified-Since`), so the
    /// origin can answer `304 Not Modified` instead of sending the bytes again.
    public func revalidating(_ metadata: CacheMetadata) -> TransportRequest {
        var request = self
        request.ifNoneMatch = metadata.etag
        request.ifModifiedSince = metadata.lastModified
        return request
    }
}
