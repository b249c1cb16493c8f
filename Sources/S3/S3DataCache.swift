import Foundation
import ImagoCore
import ImagoCurl
import Synchronization

/// A data cache in an S3 bucket, shared by every process and machine that points at the same bucket and prefix:
/// usable alone or as the last layer of `tiered` (memory or disk over Redis over S3).
///
/// Each entry is one object, `prefix` + the SHA-256 of its key, holding the same self-checking layout as a disk
/// cache file (`CacheEntryCodec`: header, key, metadata, bytes, checksum); the metadata is also copied into
/// `x-amz-meta-imago-*` headers for people and tools. An object that is truncated, fails its checksum or holds
/// another key (a foreign object) reads as a miss and is deleted. A store that is down or refuses reads as a miss,
/// reported to the loader once per outage (a failed write throws `cacheFailed`), and the cache then stands aside
/// for `retryInterval` (reads miss, writes are skipped, no request is made). Requests run on the libcurl engine's
/// own thread, never blocking the cooperative pool.
public final class S3DataCache: DataCache, CustomStringConvertible {
    /// Settings of an S3 data cache.
    public struct Configuration: Sendable {
        /// The store and how to reach it.
        public var connection: S3Configuration
        /// The bucket the entries live in.
        public var bucket: String
        /// Prepended to every object key (`imago-cache/`); `removeAll` deletes only what is under it.
        public var prefix: String
        /// Entries larger than this are not stored.
        public var maxEntryBytes: Int
        /// Seconds the cache stands aside after a failure (reads miss, writes are skipped, no request is made)
        /// before it tries the store again.
        public var retryInterval: Double

        /// A cache in `bucket` under `prefix`.
        public init(
            connection: S3Configuration, bucket: String, prefix: String = "imago-cache/",
            maxEntryBytes: Int = 50 << 20, retryInterval: Double = 5
        ) {
            self.connection = connection
            self.bucket = bucket
            self.prefix = prefix
            self.maxEntryBytes = maxEntryBytes
            self.retryInterval = retryInterval
        }
    }

    /// Counters since the cache was made.
    public struct Stats: Sendable, Hashable {
        /// Reads answered with an entry.
        public var hits = 0
        /// Reads answered with nothing (absent, damaged, or the store failing).
        public var misses = 0
        /// Entries written.
        public var writes = 0
        /// Objects found damaged or foreign, and deleted.
        public var damaged = 0
        /// Requests that failed (the store down, refusing, or answering an unexpected status).
        public var failures = 0
        /// Reads and writes skipped while the cache stood aside after a failure.
        public var skipped = 0
    }

    struct State {
        /// The counters but `failures` and `skipped`, which `outage` keeps.
        var stats = Stats()
    }

    /// The name this cache gives the entries it returns (`DataCacheEntry.layer`).
    public static let layerName = "s3"
    /// The configuration the cache was made with.
    public let configuration: Configuration
    let client: S3Client
    let state = Mutex(State())
    /// Standing aside after a failure, and reporting it once per outage.
    let outage: OutageGate

    /// A cache in the configured bucket; unset region and keys are read from `environment`. Throws
    /// `invalidSource` for an invalid bucket name, prefix or endpoint.
    public init(
        configuration: Configuration, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        if let problem = S3Location.bucketProblem(configuration.bucket) {
            throw ImagoError(.invalidSource, "invalid bucket name \(configuration.bucket.debugDescription): \(problem)")
        }
        if !configuration.prefix.isEmpty, let problem = S3Location.keyProblem(configuration.prefix + "x") {
            throw ImagoError(.invalidSource, "invalid prefix \(configuration.prefix.debugDescription): \(problem)")
        }
        self.configuration = configuration
        outage = OutageGate(retryInterval: configuration.retryInterval)
        client = try S3Client(configuration: configuration.connection, environment: environment)
    }

    /// Counters since the cache was made.
    public var stats: Stats {
        var stats = state.withLock { $0.stats }
        (stats.failures, stats.skipped) = (outage.failures, outage.skipped)
        return stats
    }

    /// The bucket and prefix; never the keys.
    public var description: String {
        "S3DataCache(s3://\(configuration.bucket)/\(configuration.prefix), endpoint: \(client.endpoint.absoluteString))"
    }

    /// The object key of `key`: the prefix and the SHA-256 of the key in hex.
    public func objectKey(for key: CacheKey) -> String {
        configuration.prefix + SHA256.hex(Array(key.rawValue.utf8))
    }

    public func entry(for key: CacheKey) async -> DataCacheEntry? {
        await entry(for: key, reporting: .ignoring)
    }

    /// The entry for `key`; a failure of the store is a miss, reported to `failures` when it is the first of an
    /// outage.
    public func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        let name = objectKey(for: key)
        guard outage.enter() else {
            state.withLock { $0.stats.misses += 1 }
            return nil
        }
        do {
            let (_, body) = try await send("GET", name)
            outage.succeeded()
            if var entry = CacheEntryCodec.decode(body, key: key) {
                entry.layer = Self.layerName
                state.withLock { $0.stats.hits += 1 }
                return entry
            }
            state.withLock { $0.stats.damaged += 1 }
            _ = try? await send("DELETE", name)
        } catch let error as ImagoError where error.kind == .transportFailed(status: 404) {
            outage.succeeded()
        } catch {
            if let report = failed(error) { failures.report(report) }
        }
        state.withLock { $0.stats.misses += 1 }
        return nil
    }

    /// Stores `entry` (an entry over `maxEntryBytes` is not stored, and an older one is removed). Throws
    /// `cacheFailed` when the store refuses or cannot be reached; while the cache stands aside after a reported
    /// failure, the write is skipped without error (an outage is reported once, not once per load).
    public func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        guard entry.data.count <= configuration.maxEntryBytes else {
            await removeEntry(for: key)
            return
        }
        guard outage.enter() else { return }
        let body: Data
        do {
            body = try CacheEntryCodec.encode(entry, key: key)
        } catch {
            throw ImagoError(.cacheFailed, "s3 cache: cannot encode the metadata of \(key): \(error)")
        }
        do {
            _ = try await send("PUT", objectKey(for: key), headers: Self.metadataHeaders(entry.metadata), body: body)
            outage.succeeded()
            state.withLock { $0.stats.writes += 1 }
        } catch {
            throw failed(error) ?? Self.cacheError(error, source: description)
        }
    }

    public func removeEntry(for key: CacheKey) async {
        guard outage.enter() else { return }
        _ = try? await send("DELETE", objectKey(for: key))
    }

    /// Deletes every object under the prefix (other objects are left alone).
    public func removeAll() async {
        _ = try? await removeAllEntries()
    }
}

extension S3DataCache {
    /// Sends one request for the object `name` in the bucket (or for the bucket itself with `query`).
    func send(
        _ method: String, _ name: String?, query: String? = nil, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (metadata: TransportMetadata, body: Data) {
        let bucket = configuration.bucket
        let url = client.url(bucket: bucket, encodedKey: name.map(S3Location.encode), query: query)
        let deadline = ContinuousClock.now.advanced(by: .seconds(client.settings.totalDeadline))
        let request = try client.request(
            method, url: url, headers: headers, body: body,
            limits: FetchLimits(maxBytes: client.settings.maxBytes, deadline: deadline),
            source: "s3://\(bucket)/\(name ?? "")")
        return try await client.send(request)
    }

    /// The metadata as `x-amz-meta-imago-*` headers (copies for people and tools; the object's body is what
    /// is read back).
    static func metadataHeaders(_ metadata: CacheMetadata) -> [String: String] {
        var headers = ["Content-Type": "application/octet-stream", "x-amz-meta-imago-entry": "1"]
        func printable(_ text: String?) -> String? {
            text.flatMap { text in text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 } ? text : nil }
        }
        headers["x-amz-meta-imago-content-type"] = printable(metadata.contentType)
        headers["x-amz-meta-imago-etag"] = printable(metadata.etag)
        headers["x-amz-meta-imago-last-modified"] = printable(metadata.lastModified)
        headers["x-amz-meta-imago-stored-at"] = String(Int(metadata.storedAt.timeIntervalSince1970))
        headers["x-amz-meta-imago-expires"] = metadata.expires.map { String(Int($0.timeIntervalSince1970)) }
        return headers
    }

    /// Counts a failure and stands aside for `retryInterval`; returns it as `cacheFailed` when it is the first of
    /// an outage.
    func failed(_ error: any Error) -> ImagoError? {
        let failure = Self.cacheError(error, source: description)
        return outage.failed(failure) ? failure : nil
    }

    static func cacheError(_ error: any Error, source: String) -> ImagoError {
        let reason = (error as? ImagoError)?.reason ?? "\(error)"
        return ImagoError(.cacheFailed, "s3 cache: \(reason)", source: source)
    }
}
