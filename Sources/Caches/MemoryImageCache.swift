import Foundation
import Synchronization

/// A memory cache of decoded images, bounded by total cost (bytes of pixels) and by count, evicting the least
/// recently used first.
///
/// A lookup is a hash lookup under a `Mutex`: no task hop, safe from any thread. Entries over the per-entry cost
/// cap are not kept, so one huge image cannot flush everything else. With a time-to-live, an entry older than it
/// reads as a miss and is dropped.
public final class MemoryImageCache: ImageCache {
    /// Counters since the cache was made, and what it holds now.
    public struct Stats: Sendable, Hashable {
        /// Lookups that found a live image.
        public var hits = 0
        /// Lookups that found nothing (or an expired image).
        public var misses = 0
        /// Images removed to honour the limits (not counting explicit removals or expiry).
        public var evictions = 0
        /// Images held now.
        public var count = 0
        /// Sum of the costs of the images held now, in bytes.
        public var totalCost = 0
    }

    private struct State {
        var entries = LRUList<CacheKey, DecodedImage>()
        var stats = Stats()
    }

    /// The limits this cache was made with.
    public let configuration: Configuration
    private let state = Mutex(State())
    private let now: @Sendable () -> Double

    /// A cache with `configuration` (by default, sized from the machine's memory).
    ///
    /// `now` gives monotonic seconds for the time-to-live; tests inject a clock they control.
    public init(
        configuration: Configuration = .default,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.configuration = configuration
        self.now = now
    }

    public func image(for key: CacheKey) -> DecodedImage? {
        let time = configuration.timeToLive == nil ? 0 : now()
        return state.withLock { state in
            guard let (image, expiry) = state.entries.value(for: key) else {
                state.stats.misses += 1
                return nil
            }
            if time >= expiry {
                state.entries.remove(key)
                state.stats.misses += 1
                return nil
            }
            state.stats.hits += 1
            return image
        }
    }

    public func store(_ image: DecodedImage, for key: CacheKey) {
        let cost = max(1, image.cost)
        let expiry = configuration.timeToLive.map { now() + $0 } ?? .infinity
        // Released outside the lock: freeing big pixel buffers may take a while.
        let evicted = state.withLock { state -> [DecodedImage] in
            guard cost <= configuration.entryCostLimit, cost <= configuration.costLimit else {
                // The new image replaces the old one for this key, even though it is not kept.
                return state.entries.remove(key).map { [$0] } ?? []
            }
            state.entries.set(image, for: key, cost: cost, expiry: expiry)
            return Self.evict(&state, toCost: configuration.costLimit, toCount: configuration.countLimit)
        }
        withExtendedLifetime(evicted) {}
    }

    public func removeImage(for key: CacheKey) {
        let removed = state.withLock { $0.entries.remove(key) }
        withExtendedLifetime(removed) {}
    }

    public func removeAll() {
        let old = state.withLock { state in
            let old = state.entries
            state.entries.removeAll()
            return old
        }
        withExtendedLifetime(old) {}
    }

    /// Evicts the least recently used images until the total cost is at most `cost` (0 empties the cache);
    /// for memory pressure.
    public func trim(toCost cost: Int) {
        let evicted = state.withLock { Self.evict(&$0, toCost: max(0, cost), toCount: .max) }
        withExtendedLifetime(evicted) {}
    }

    /// Evicts the least recently used images until at most `count` remain.
    public func trim(toCount count: Int) {
        let evicted = state.withLock { Self.evict(&$0, toCost: .max, toCount: max(0, count)) }
        withExtendedLifetime(evicted) {}
    }

    /// Counters and current size.
    public var stats: Stats {
        state.withLock { state in
            var stats = state.stats
            stats.count = state.entries.count
            stats.totalCost = state.entries.totalCost
            return stats
        }
    }

    /// The keys held, from the most to the least recently used.
    public var keysByRecency: [CacheKey] { state.withLock { $0.entries.keysByRecency } }

    private static func evict(_ state: inout State, toCost cost: Int, toCount count: Int) -> [DecodedImage] {
        var evicted: [DecodedImage] = []
        while state.entries.totalCost > cost || state.entries.count > count {
            guard let (_, image) = state.entries.removeOldest() else { break }
            state.stats.evictions += 1
            evicted.append(image)
        }
        return evicted
    }
}
