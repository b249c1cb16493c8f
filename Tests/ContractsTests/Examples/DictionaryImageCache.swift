import ImagoCore
import Synchronization

/// A complete example memory cache: a dictionary with least-recently-used eviction past a count or cost limit.
///
/// It shows what every image cache must do: be safe from many threads (one lock around the state), keep its
/// limits after every store, and not keep an image over its per-entry limit.
final class DictionaryImageCache: ImageCache {
    let countLimit: Int
    let costLimit: Int
    /// Images costing more than this are not kept (a quarter of the cost limit by default).
    let entryCostLimit: Int

    private struct Entry {
        var image: DecodedImage
        var lastUse: UInt64
    }
    private struct State {
        var entries: [CacheKey: Entry] = [:]
        var clock: UInt64 = 0
        var totalCost = 0
    }
    private let state = Mutex(State())

    init(countLimit: Int = 100, costLimit: Int = 64 * 1024 * 1024, entryCostLimit: Int? = nil) {
        self.countLimit = max(countLimit, 1)
        self.costLimit = max(costLimit, 1)
        self.entryCostLimit = entryCostLimit ?? max(costLimit / 4, 1)
    }

    func image(for key: CacheKey) -> DecodedImage? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.image
        }
    }

    func store(_ image: DecodedImage, for key: CacheKey) {
        state.withLock { state in
            Self.remove(key, from: &state)
            guard image.cost <= entryCostLimit else { return }
            state.clock += 1
            state.entries[key] = Entry(image: image, lastUse: state.clock)
            state.totalCost += image.cost
            // A linear scan for the oldest entry is fine for an example; a real cache keeps a linked list.
            while state.entries.count > countLimit || state.totalCost > costLimit {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
                Self.remove(oldest, from: &state)
            }
        }
    }

    func removeImage(for key: CacheKey) { state.withLock { Self.remove(key, from: &$0) } }

    func removeAll() { state.withLock { $0 = State() } }

    private static func remove(_ key: CacheKey, from state: inout State) {
        if let old = state.entries.removeValue(forKey: key) { state.totalCost -= old.image.cost }
    }
}
