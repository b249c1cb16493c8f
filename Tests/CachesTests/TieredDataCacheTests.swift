import Foundation
import ImagoContracts
import ImagoTestSupport
import Testing

@testable import ImagoCaches

/// The tiered cache reads its layers in order, back-fills the ones above a hit, writes through, skips a failing
/// layer, and keeps the DataCache contract.
@Suite struct TieredDataCacheTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func disk(_ name: String) -> DiskDataCache {
        DiskDataCache(configuration: .init(directory: folder.url.appendingPathComponent(name)))
    }

    @Test func aHitDeepDownIsCopiedIntoEveryLayerAbove() async throws {
        let (top, middle, bottom) = (disk("top"), disk("middle"), disk("bottom"))
        let tiered = TieredDataCache(layers: [
            .init(name: "top", cache: top), .init(name: "middle", cache: middle), .init(name: "bottom", cache: bottom),
        ])
        let entry = DataCacheEntry(data: Data([1, 2, 3]), metadata: CacheMetadata(etag: "\"x\""))
        try await bottom.store(entry, for: "k")
        #expect(await top.entry(for: "k") == nil)
        #expect(await middle.entry(for: "k") == nil)

        let first = try #require(await tiered.entry(for: "k"))
        #expect(first == entry)
        #expect(first.layer == "disk", "the layer's own name wins: the bottom one is a disk cache")
        #expect(await top.entry(for: "k") == entry, "back-filled into the top layer")
        #expect(await middle.entry(for: "k") == entry, "back-filled into the middle layer")
        let topStats = await top.stats()
        let again = try #require(await tiered.entry(for: "k"))
        #expect(again == entry)
        #expect(await top.stats().hits == topStats.hits + 1, "the second read stops at the top layer")
    }

    @Test func layersThatDoNotNameThemselvesAreNamedByTheTier() async throws {
        let plain = RecordingDataCache()
        let tiered = TieredDataCache(layers: [.init(name: "shared", cache: plain)])
        try await tiered.store(DataCacheEntry(data: Data([9])), for: "k")
        #expect(await tiered.entry(for: "k")?.layer == "shared")
    }

    @Test func writesGoToEveryLayerAndRemovalsToo() async throws {
        let (top, bottom) = (disk("top"), disk("bottom"))
        let tiered = TieredDataCache(layers: [.init(name: "top", cache: top), .init(name: "bottom", cache: bottom)])
        try await tiered.store(DataCacheEntry(data: Data([1])), for: "a")
        try await tiered.store(DataCacheEntry(data: Data([2])), for: "b")
        #expect(await top.entry(for: "a")?.data == Data([1]))
        #expect(await bottom.entry(for: "a")?.data == Data([1]))
        await tiered.removeEntry(for: "a")
        #expect(await top.entry(for: "a") == nil)
        #expect(await bottom.entry(for: "a") == nil)
        await tiered.removeAll()
        #expect(await top.entry(for: "b") == nil)
        #expect(await bottom.entry(for: "b") == nil)
    }

    @Test func aFailingLayerIsSkipped() async throws {
        let broken = RecordingDataCache(failing: true)
        let bottom = disk("bottom")
        let tiered = TieredDataCache(layers: [.init(name: "broken", cache: broken), .init(name: "disk", cache: bottom)])
        try await tiered.store(DataCacheEntry(data: Data([5])), for: "k")
        #expect(await tiered.entry(for: "k")?.data == Data([5]))
        #expect(await broken.storeAttempts == 2, "the write and the back-fill were tried, and ignored")

        let allBroken = TieredDataCache(layers: [
            .init(name: "a", cache: RecordingDataCache(failing: true)),
            .init(name: "b", cache: RecordingDataCache(failing: true)),
        ])
        await #expect(throws: ImagoError.self) { try await allBroken.store(DataCacheEntry(data: Data([1])), for: "k") }
    }

    @Test func keepsTheDataCacheContract() async throws {
        let root = folder.url
        let contract = DataCacheContract(
            makeCache: {
                let run = root.appendingPathComponent(UUID().uuidString)
                return TieredDataCache(layers: [
                    .init(
                        name: "top",
                        cache: DiskDataCache(configuration: .init(directory: run.appendingPathComponent("1")))),
                    .init(
                        name: "bottom",
                        cache: DiskDataCache(configuration: .init(directory: run.appendingPathComponent("2")))),
                ])
            },
            damage: { cache, _ in
                for layer in (cache as! TieredDataCache).layers {
                    try damageEveryFile(in: (layer.cache as! DiskDataCache).directory)
                }
            })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}

/// An in-memory data cache that can be made to fail every write (and miss every read), counting the writes tried.
actor RecordingDataCache: DataCache {
    private var entries: [CacheKey: DataCacheEntry] = [:]
    private let failing: Bool
    private(set) var storeAttempts = 0

    init(failing: Bool = false) { self.failing = failing }

    func entry(for key: CacheKey) -> DataCacheEntry? { failing ? nil : entries[key] }

    func store(_ entry: DataCacheEntry, for key: CacheKey) throws {
        storeAttempts += 1
        if failing { throw ImagoError(.cacheFailed, "this layer is broken") }
        entries[key] = entry
    }

    func removeEntry(for key: CacheKey) { entries[key] = nil }

    func removeAll() { entries = [:] }
}
