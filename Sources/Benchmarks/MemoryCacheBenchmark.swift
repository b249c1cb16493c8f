import Foundation
import Imago
import Synchronization

/// Memory-cache hits: `MemoryImageCache` (LRU bookkeeping, cost limits, TTL) against the floor of a bare
/// dictionary lookup under the same kind of lock. Divide the count by the time for lookups per second.
enum MemoryCacheBenchmark {
    static let lookups = 1_000_000
    static let keys = (0..<1000).map { CacheKey("https://example.com/images/\($0).jpg|resize(200x200,fill)") }

    static func make() throws -> BenchmarkCase {
        let image = DecodedImage(raster: try Raster(width: 8, height: 8, fill: RGBA(1, 2, 3)), format: .png)
        let cache = MemoryImageCache(configuration: .init(costLimit: 1 << 30, countLimit: 10_000))
        let floor = Mutex<[CacheKey: DecodedImage]>([:])
        for key in keys {
            cache.store(image, for: key)
            floor.withLock { $0[key] = image }
        }
        return BenchmarkCase(
            name: "memory cache hit x\(lookups / 1000)k",
            imago: { try expectHits { cache.image(for: $0) != nil } },
            baseline: { try expectHits { key in floor.withLock { $0[key] != nil } } })
    }

    /// Looks every key up in turn, `lookups` times in all, and fails unless every lookup hit.
    private static func expectHits(_ lookup: (CacheKey) -> Bool) throws {
        var hits = 0
        for index in 0..<lookups where lookup(keys[index % keys.count]) { hits += 1 }
        guard hits == lookups else { throw ImagoError(.cacheFailed, "only \(hits) of \(lookups) lookups hit") }
    }
}
