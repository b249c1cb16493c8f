import Foundation

/// Data caches stacked in order, fastest first: typically a local disk over a Redis shared by a fleet.
///
/// A read asks the layers in order; the first hit is copied into the layers above it (so the next read stops
/// earlier) and returned, named after its layer (`DataCacheEntry.layer`). A write goes to every layer at once and
/// succeeds when one layer took it. A layer that fails is skipped: its read is a miss, its write is ignored while
/// another layer works; each layer reports and stands aside on its own (read failures reach the loader's events
/// through `entry(for:reporting:)`).
public final class TieredDataCache: DataCache {
    /// One layer: a cache and the name reported for its hits.
    public struct Layer: Sendable {
        /// The name of the layer (`disk`, `redis`), given to the entries it answers.
        public var name: String
        /// The cache.
        public var cache: any DataCache

        /// Creates a layer.
        public init(name: String, cache: any DataCache) {
            self.name = name
            self.cache = cache
        }
    }

    /// The layers, first asked first.
    public let layers: [Layer]

    /// The first layer's: the one a load is normally answered from.
    public var defaultMaxAge: Double { layers.first?.cache.defaultMaxAge ?? CacheMetadata.standardDefaultMaxAge }

    /// A cache over `layers`, asked in that order.
    public init(layers: [Layer]) { self.layers = layers }

    public func entry(for key: CacheKey) async -> DataCacheEntry? {
        await entry(for: key, reporting: .ignoring)
    }

    /// The first layer's hit, as `entry(for:)`; each layer reports its own read failures to `failures`.
    public func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        for (index, layer) in layers.enumerated() {
            guard var entry = await layer.cache.entry(for: key, reporting: failures) else { continue }
            entry.layer = entry.layer ?? layer.name
            let found = entry
            // Back-fill the layers that missed, together; a layer that cannot take it is skipped.
            await withTaskGroup(of: Void.self) { group in
                for upper in layers[..<index] {
                    group.addTask { try? await upper.cache.store(found, for: key) }
                }
            }
            return found
        }
        return nil
    }

    /// Writes to every layer at once; throws the first layer's error only when no layer took the entry.
    public func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for layer in layers {
                group.addTask {
                    do {
                        try await layer.cache.store(entry, for: key)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var errors: [any Error] = []
            for await error in group { if let error { errors.append(error) } }
            return errors
        }
        if !layers.isEmpty, errors.count == layers.count, let first = errors.first { throw first }
    }

    public func removeEntry(for key: CacheKey) async {
        await withTaskGroup(of: Void.self) { group in
            for layer in layers { group.addTask { await layer.cache.removeEntry(for: key) } }
        }
    }

    public func removeAll() async {
        await withTaskGroup(of: Void.self) { group in
            for layer in layers { group.addTask { await layer.cache.removeAll() } }
        }
    }
}
