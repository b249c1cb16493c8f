import Foundation

/// Fetches the bytes of a source. One transport serves one or more URL schemes.
///
/// A transport streams: it yields `.response` once (when it knows the status and length), then `.bytes`
/// chunks in order, then finishes. It stops promptly when the consumer stops iterating or its task is cancelled,
/// and every error it throws is an `ImagoError` naming the source.
public protocol ImageTransport: Sendable {
    /// The lowercase URL schemes served, for example `["http", "https"]`.
    var schemes: Set<String> { get }

    /// Starts fetching; bytes arrive as the returned stream is iterated.
    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error>

    /// Whether and how the answers may be kept in a data cache; `nil` (the default) keeps none.
    var cachePolicy: (any TransportCachePolicy)? { get }
}

/// What a transport is asked to fetch.
public struct TransportRequest: Sendable, Hashable {
    /// The source.
    public var url: URL
    /// Extra request headers (transports without headers ignore them).
    public var headers: [String: String]
    /// When revalidating a cached entry: its ETag (sent as `If-None-Match`).
    public var ifNoneMatch: String?
    /// When revalidating a cached entry: its Last-Modified (sent as `If-Modified-Since`).
    public var ifModifiedSince: String?
    /// What the loader allows this fetch: bytes, a deadline, and the source policy a transport that follows
    /// redirects or opens connections must apply to every hop and address. Not part of the request's identity.
    public var limits: FetchLimits

    /// Creates a request.
    public init(
        url: URL, headers: [String: String] = [:], ifNoneMatch: String? = nil, ifModifiedSince: String? = nil,
        limits: FetchLimits = FetchLimits()
    ) {
        self.url = url
        self.headers = headers
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.limits = limits
    }

    public static func == (lhs: TransportRequest, rhs: TransportRequest) -> Bool {
        lhs.url == rhs.url && lhs.headers == rhs.headers && lhs.ifNoneMatch == rhs.ifNoneMatch
            && lhs.ifModifiedSince == rhs.ifModifiedSince
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(headers)
        hasher.combine(ifNoneMatch)
        hasher.combine(ifModifiedSince)
    }
}

/// One step of a fetch.
public enum TransportEvent: Sendable {
    /// The response head: status, expected length, caching metadata. Sent once, before any bytes.
    case response(TransportMetadata)
    /// The next bytes of the body.
    case bytes(Data)
}

/// What a transport learned about the response besides its bytes.
public struct TransportMetadata: Sendable, Hashable, Codable {
    /// The HTTP status (200, 304, …); `nil` for transports without statuses.
    public var statusCode: Int?
    /// The expected body length, when known.
    public var expectedLength: Int64?
    /// The media type (`Content-Type`, or a `data:` URI's type).
    public var contentType: String?
    /// The `ETag` header.
    public var etag: String?
    /// The `Last-Modified` header.
    public var lastModified: String?
    /// The `Cache-Control` header.
    public var cacheControl: String?
    /// The `Expires` header.
    public var expires: String?
    /// The `Date` header.
    public var date: String?
    /// The `Retry-After` header, in seconds, when the server sent one.
    public var retryAfter: Double?
    /// The URL finally read, after redirects.
    public var finalURL: URL?

    /// Creates metadata.
    public init(
        statusCode: Int? = nil, expectedLength: Int64? = nil, contentType: String? = nil, etag: String? = nil,
        lastModified: String? = nil, cacheControl: String? = nil, expires: String? = nil, date: String? = nil,
        retryAfter: Double? = nil, finalURL: URL? = nil
    ) {
        self.statusCode = statusCode
        self.expectedLength = expectedLength
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
        self.date = date
        self.retryAfter = retryAfter
        self.finalURL = finalURL
    }

    /// Whether this is a `304 Not Modified` answer to a revalidation.
    public var isNotModified: Bool { statusCode == 304 }
}

/// Bytes fetched in full.
public struct FetchedData: Sendable {
    /// The body.
    public var data: Data
    /// The response head (empty metadata if the transport sent none).
    public var metadata: TransportMetadata
}

/// Progress of a fetch: bytes received so far and expected in all, when known.
public struct FetchProgress: Sendable, Hashable {
    public var received: Int64
    public var expected: Int64?

    /// Creates progress.
    public init(received: Int64, expected: Int64?) {
        self.received = received
        self.expected = expected
    }

    /// The fraction done, when the total is known.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(received) / Double(expected))
    }
}

extension ImageTransport {
    /// Whether this transport serves the URL's scheme.
    public func serves(_ url: URL) -> Bool { schemes.contains(url.scheme?.lowercased() ?? "") }

    /// Fetches every byte, reporting progress after each chunk; throws `tooLarge` past `maxBytes`. `chunks`, when
    /// given, sees each chunk with the number of body bytes before it (what incremental decoders are fed).
    public func fetchAll(
        _ request: TransportRequest, maxBytes: Int = .max,
        progress: (@Sendable (FetchProgress) -> Void)? = nil,
        chunks: (@Sendable (_ chunk: Data, _ offset: Int) -> Void)? = nil
    ) async throws -> FetchedData {
        let maxBytes = min(maxBytes, request.limits.maxBytes)
        var data = Data()
        // A large body of announced length is gathered in a pooled buffer instead (see `PooledBody`).
        var pooled: PooledBody?
        var metadata = TransportMetadata()
        do {
            for try await event in fetch(request) {
                switch event {
                case .response(let head):
                    metadata = head
                    if let expected = head.expectedLength {
                        if expected > maxBytes {
                            throw ImagoError(
                                .tooLarge, "too large: \(expected) bytes exceeds the limit of \(maxBytes) bytes",
                                source: request.url.absoluteString)
                        }
                    }
                    progress?(FetchProgress(received: 0, expected: head.expectedLength))
                case .bytes(let chunk):
                    chunks?(chunk, pooled?.count ?? data.count)
                    if let body = pooled {
                        if !body.append(chunk) {
                            // Longer than announced: on in `Data` (still capped below).
                            data = body.take()
                            data.append(chunk)
                            pooled = nil
                        }
                    } else if data.isEmpty, let expected = metadata.expectedLength.map(Int.init) {
                        if chunk.startIndex == 0, chunk.count == expected {
                            data = chunk  // the whole body in one chunk: kept as it is, not copied
                        } else if let body = PooledBody(capacity: expected), body.append(chunk) {
                            pooled = body
                        } else {
                            data.reserveCapacity(expected)
                            data.append(chunk)
                        }
                    } else {
                        data.append(chunk)
                    }
                    let received = pooled?.count ?? data.count
                    if received > maxBytes {
                        throw ImagoError(
                            .tooLarge, "too large: more than \(maxBytes) bytes", source: request.url.absoluteString)
                    }
                    progress?(FetchProgress(received: Int64(received), expected: metadata.expectedLength))
                }
            }
        } catch {
            throw ImagoError.wrapping(error, source: request.url.absoluteString)
        }
        try Task.checkCancellation()
        if let pooled { data = pooled.take() }
        return FetchedData(data: data, metadata: metadata)
    }
}

/// Whether and how a transport's answers may be kept in a data cache: the transport supplies it
/// (`ImageTransport.cachePolicy`), so the loader knows no protocol's rules. HTTP's is `HTTPCachePolicy`.
public protocol TransportCachePolicy: Sendable {
    /// The metadata to store with `response`'s bytes, or `nil` when they must not be stored. `defaultMaxAge`
    /// (seconds) is the data cache's cap on heuristic freshness.
    func metadata(for response: TransportMetadata, defaultMaxAge: Double, now: Date) -> CacheMetadata?

    /// A stored entry's metadata after the origin answered a revalidation with `response` (`304 Not Modified`).
    func refreshed(_ metadata: CacheMetadata, by response: TransportMetadata, now: Date) -> CacheMetadata
}

extension TransportCachePolicy {
    /// The data-cache entry a fetch leaves: after a `304 Not Modified`, the `stale` copy's bytes with their
    /// metadata refreshed (nil without a copy); otherwise the fetched `data` with the metadata `response` allows
    /// (nil when it must not be kept). `defaultMaxAge` is the data cache's.
    public func entry(
        after response: TransportMetadata, data: Data, stale: DataCacheEntry?, defaultMaxAge: Double, now: Date = Date()
    ) -> DataCacheEntry? {
        if response.isNotModified {
            guard let stale else { return nil }
            return DataCacheEntry(data: stale.data, metadata: refreshed(stale.metadata, by: response, now: now))
        }
        return metadata(for: response, defaultMaxAge: defaultMaxAge, now: now).map {
            DataCacheEntry(data: data, metadata: $0)
        }
    }
}

extension ImageTransport {
    /// By default a transport's answers are not kept in the data cache (local files and `data:` URIs are at hand
    /// already, and without validators a copy could not tell when they changed).
    public var cachePolicy: (any TransportCachePolicy)? { nil }
}
