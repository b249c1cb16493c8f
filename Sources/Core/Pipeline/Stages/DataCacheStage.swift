import Foundation

/// Stage 2: the data cache of encoded bytes, read before fetching and written with what the transport allows.
struct DataCacheStage: Sendable {
    let cache: (any DataCache)?
    /// The name a hit is reported under when the entry names no layer (`PluginRegistry.dataCacheName`).
    let name: String?
    let counters: LoaderCounters

    /// What the data cache holds for a request.
    enum Lookup {
        /// Fresh bytes: served without asking the origin.
        case fresh(DataCacheEntry)
        /// Bytes that must be revalidated (they carry validators) before they are used.
        case stale(DataCacheEntry)
        /// Nothing usable.
        case miss
    }

    /// Looks `request` up, when it may read the cache. A read failure the cache reports is an event and a miss.
    func lookup(_ request: ImageRequest, sink: LoadEventSink?) async -> Lookup {
        guard request.cachePolicy.contains(.readDisk), let cache else { return .miss }
        let failures = CacheFailureReporter { error in sink(.dataCacheReadFailed(error)) }
        guard var entry = await cache.entry(for: request.dataCacheKey, reporting: failures) else {
            sink(.dataCacheMiss(stale: false))
            return .miss
        }
        let layer = entry.layer ?? name ?? "data"
        entry.layer = layer
        if entry.metadata.isFresh(at: .now) {
            counters.diskHits.increment()
            sink(.dataCacheHit(byteCount: entry.data.count, layer: layer))
            return .fresh(entry)
        }
        sink(.dataCacheMiss(stale: true))
        return entry.metadata.canRevalidate ? .stale(entry) : .miss
    }

    /// Stores `entry` for `request`, when it may write the cache. A cache that cannot write does not fail the
    /// load: the failure is an event.
    func store(_ entry: DataCacheEntry, for request: ImageRequest, sink: LoadEventSink?) async {
        guard request.cachePolicy.contains(.writeDisk), let cache else { return }
        do {
            try await cache.store(entry, for: request.dataCacheKey)
            sink(.cacheWritten(.data))
        } catch {
            sink(.cacheWriteFailed(.data, ImagoError.wrapping(error, source: request.sourceString)))
        }
    }
}
