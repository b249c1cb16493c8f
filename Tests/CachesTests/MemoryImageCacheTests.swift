import Foundation
import Synchronization
import Testing

@testable import ImagoCaches

/// An image of `width` x `height` pixels (cost `width * height * 4`) filled with `value`, to tell images apart.
func makeImage(width: Int = 4, height: Int = 4, value: UInt8 = 0) throws -> DecodedImage {
    DecodedImage(raster: try Raster(width: width, height: height, fill: RGBA(value, value, value)), format: .png)
}

/// A counter shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds = Mutex(1000.0)
    var now: Double { seconds.withLock { $0 } }
    func advance(_ interval: Double) { seconds.withLock { $0 += interval } }
}

@Suite struct MemoryImageCacheTests {
    @Test func storesAndFindsImages() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 10_000))
        let image = try makeImage(value: 7)
        cache.store(image, for: "a")
        #expect(cache.image(for: "a") == image)
        #expect(cache.image(for: "b") == nil)
        let stats = cache.stats
        #expect(stats.hits == 1)
        #expect(stats.misses == 1)
        #expect(stats.count == 1)
        #expect(stats.totalCost == 64)
    }

    @Test func evictsLeastRecentlyUsedPastCostLimit() throws {
        // Four 64-byte images fit in 256 bytes; the fifth evicts the least recently used.
        let cache = MemoryImageCache(configuration: .init(costLimit: 256, entryCostLimit: 256))
        for name in ["a", "b", "c", "d"] { cache.store(try makeImage(), for: CacheKey(name)) }
        _ = cache.image(for: "a")
        cache.store(try makeImage(), for: "e")
        #expect(cache.image(for: "b") == nil)
        #expect(cache.keysByRecency == ["e", "a", "d", "c"])
        #expect(cache.stats.totalCost == 256)
        #expect(cache.stats.evictions == 1)
    }

    @Test func evictsPastCountLimit() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 1 << 20, countLimit: 3))
        for index in 0..<10 { cache.store(try makeImage(), for: CacheKey("k\(index)")) }
        #expect(cache.stats.count == 3)
        #expect(cache.keysByRecency == ["k9", "k8", "k7"])
    }

    @Test func refusesImagesOverEntryCap() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 4096, entryCostLimit: 1000))
        cache.store(try makeImage(), for: "small")
        cache.store(try makeImage(value: 1), for: "big")
        cache.store(try makeImage(width: 16, height: 16), for: "big")
        #expect(cache.image(for: "big") == nil, "an over-cap image replaces, and drops, the old one")
        #expect(cache.image(for: "small") != nil, "a refused image evicts nothing")
        #expect(cache.stats.count == 1)
    }

    @Test func replacingAnEntryChargesTheNewCost() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 10_000))
        cache.store(try makeImage(), for: "a")
        cache.store(try makeImage(width: 8, height: 8, value: 3), for: "a")
        #expect(cache.stats.totalCost == 256)
        #expect(cache.stats.count == 1)
        #expect(cache.image(for: "a")?.width == 8)
    }

    @Test func expiresEntriesAfterTimeToLive() throws {
        let clock = ManualClock()
        let cache = MemoryImageCache(configuration: .init(costLimit: 10_000, timeToLive: 60)) { clock.now }
        cache.store(try makeImage(), for: "a")
        clock.advance(59)
        #expect(cache.image(for: "a") != nil)
        cache.store(try makeImage(), for: "b")
        clock.advance(2)
        #expect(cache.image(for: "a") == nil)
        #expect(cache.image(for: "b") != nil)
        #expect(cache.stats.count == 1, "the expired entry is dropped when found")
    }

    @Test func trimsToCostAndCount() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 10_000))
        for index in 0..<10 { cache.store(try makeImage(), for: CacheKey("k\(index)")) }
        cache.trim(toCost: 200)
        #expect(cache.stats.totalCost == 192)
        #expect(cache.keysByRecency == ["k9", "k8", "k7"])
        cache.trim(toCount: 1)
        #expect(cache.keysByRecency == ["k9"])
        cache.trim(toCost: 0)
        #expect(cache.stats.count == 0)
    }

    @Test func removesImages() throws {
        let cache = MemoryImageCache(configuration: .init(costLimit: 10_000))
        cache.store(try makeImage(), for: "a")
        cache.store(try makeImage(), for: "b")
        cache.removeImage(for: "a")
        #expect(cache.image(for: "a") == nil)
        #expect(cache.stats.count == 1)
        cache.removeAll()
        #expect(cache.image(for: "b") == nil)
        #expect(cache.stats.totalCost == 0)
        cache.store(try makeImage(), for: "c")
        #expect(cache.image(for: "c") != nil, "the cache works after removeAll")
    }

    @Test func defaultsAreSizedFromPhysicalMemory() {
        let gigabyte: UInt64 = 1 << 30
        #expect(
            MemoryImageCache.Configuration.defaultCostLimit(physicalMemory: 2 * gigabyte)
                == Int(2 * gigabyte / 100 * 15))
        #expect(MemoryImageCache.Configuration.defaultCostLimit(physicalMemory: 64 * gigabyte) == 512 << 20)
        let defaults = MemoryImageCache.Configuration.default
        #expect(defaults.costLimit > 0)
        #expect(defaults.costLimit <= 512 << 20)
        #expect(defaults.entryCostLimit == defaults.costLimit / 4)
    }

    @Test func staysConsistentUnderConcurrentReadersAndWriters() async throws {
        // Each key always maps to images filled with its own value, so any hit can be checked.
        let cache = MemoryImageCache(configuration: .init(costLimit: 64 * 20, countLimit: 15, entryCostLimit: 64))
        let images = try (0..<32).map { try makeImage(value: UInt8($0)) }
        let wrongHits = Counter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for step in 0..<2000 {
                        let index = (task * 7 + step * 13) % 32
                        let key = CacheKey("k\(index)")
                        switch step % 5 {
                        case 0, 1: cache.store(images[index], for: key)
                        case 4 where step % 100 == 4: cache.removeImage(for: key)
                        default:
                            if let image = cache.image(for: key), image != images[index] {
                                wrongHits.increment()
                            }
                        }
                    }
                }
            }
        }
        let stats = cache.stats
        #expect(wrongHits.value == 0)
        #expect(stats.count <= 15)
        #expect(stats.totalCost <= 64 * 20)
        #expect(stats.totalCost == stats.count * 64)
        #expect(cache.keysByRecency.count == stats.count)
    }
}
