import Foundation
import Imago

/// A transport that fetches each source once per fleet: the fetch (or revalidation) runs under a lease named by
/// the source, and the holder puts the bytes (or the refreshed entry) in the shared data cache before it lets go, so
/// the processes that waited read them from there instead of asking the origin again. Without a coordinator every
/// request goes straight through.
struct FleetSourceTransport: ImageTransport {
    let inner: any ImageTransport
    let schemes: Set<String>
    let fleet: ServeFleet
    /// The loader's data cache: where the waiters look, and where the holder stores first.
    let cache: any DataCache

    var cachePolicy: (any TransportCachePolicy)? { inner.cachePolicy }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        guard fleet.shares else { return inner.fetch(request) }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let (data, metadata) = try await fetchOnce(request)
                    continuation.yield(.response(metadata))
                    if !data.isEmpty { continuation.yield(.bytes(data)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func fetchOnce(_ request: TransportRequest) async throws -> (Data, TransportMetadata) {
        let key = ImageRequest(url: request.url, headers: request.headers).dataCacheKey
        let name = "source:" + SHA256.hex(Array(key.rawValue.utf8))
        // A copy stored since this fetch began is as recent as the fetch would be, fresh by its headers or not
        // (an object without Cache-Control is stale within seconds). The store keeps whole seconds at worst.
        let began = Date().addingTimeInterval(-1)
        return try await fleet.once(
            name,
            lookup: { [cache, fleet] in
                let failures = CacheFailureReporter { _ in fleet.recordError(store: "sources", op: "get") }
                guard let entry = await cache.entry(for: key, reporting: failures),
                    entry.metadata.isFresh() || entry.metadata.storedAt >= began
                else { return nil }
                fleet.recordSourceCopy()
                return (entry.data, Self.metadata(of: entry))
            },
            work: { [inner, cache, fleet] in
                let fetched = try await inner.fetchAll(request)
                // What the loader will keep, kept before the lease is released (the loader writes it again).
                guard let policy = inner.cachePolicy else { return (fetched.data, fetched.metadata) }
                let stale = fetched.metadata.isNotModified ? await cache.entry(for: key) : nil
                if var entry = policy.entry(
                    after: fetched.metadata, data: fetched.data, stale: stale, defaultMaxAge: cache.defaultMaxAge)
                {
                    // A refreshed copy counts as stored now, whatever the policy says: waiters take copies stored
                    // since they began waiting.
                    if fetched.metadata.isNotModified { entry.metadata.storedAt = Date() }
                    do {
                        try await cache.store(entry, for: key)
                    } catch {
                        fleet.recordError(store: "sources", op: "put")
                    }
                }
                return (fetched.data, fetched.metadata)
            })
    }

    /// The response head of a stored copy: its validators and type, and its expiry as `Expires` (with `Date`), so
    /// the loader keeps it as long as the holder's copy.
    static func metadata(of entry: DataCacheEntry) -> TransportMetadata {
        let now = Date()
        return TransportMetadata(
            statusCode: 200, expectedLength: Int64(entry.data.count), contentType: entry.metadata.contentType,
            etag: entry.metadata.etag, lastModified: entry.metadata.lastModified,
            expires: entry.metadata.expires.map(HTTPDate.string(from:)), date: HTTPDate.string(from: now))
    }
}

extension ImageServer {
    /// `registry` with each network transport (http, https, s3 and the schemes of `allowedSources`) wrapped in a
    /// `FleetSourceTransport`, when the fleet shares and the registry has a data cache.
    static func sharingSources(_ registry: PluginRegistry, fleet: ServeFleet, settings: ServeSettings) -> PluginRegistry
    {
        guard fleet.shares, let cache = registry.dataCache else { return registry }
        let named = settings.allowedSources.compactMap { URL(string: $0)?.scheme?.lowercased() }
        let schemes = Set(["http", "https", "s3"] + named).subtracting(["file", "data"])
        var builder = PluginRegistry.Builder(registry)
        for scheme in schemes.sorted() {
            guard let url = URL(string: "\(scheme)://host/"), let inner = registry.transport(for: url) else { continue }
            builder.add(FleetSourceTransport(inner: inner, schemes: [scheme], fleet: fleet, cache: cache))
        }
        return builder.build()
    }
}
