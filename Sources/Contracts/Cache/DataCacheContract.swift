import Foundation
import ImagoCore

/// The promises of a `DataCache` of encoded bytes.
///
/// ```swift
/// let contract = DataCacheContract(
///     makeCache: { DictionaryDataCache(byteLimit: 64 * 1024) },
///     damage: { cache, key in (cache as! DictionaryDataCache).damageEntry(for: key) },
///     byteLimit: 64 * 1024)
/// let report = await contract.run()
/// XCTAssertTrue(report.passed, report.description)
/// ```
public struct DataCacheContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case getsAfterSet = "returns the bytes stored"
        case roundTripsMetadata = "keeps the metadata"
        case missesUnknownKeys = "misses keys never stored"
        case overwrites = "replaces an entry stored again"
        case removes = "removes one entry, keeping the others"
        case removesAll = "removes every entry"
        case keepsKeysApart = "keeps keys apart, whatever characters they hold"
        case readsDamageAsMiss = "reads a damaged entry as a miss"
        case holdsByteLimit = "keeps at most its byte limit under load"
        case evictsInOrder = "evicts in its documented order"
        case survivesConcurrentUse = "stays consistent under concurrent use"
    }

    /// Corrupts what the cache stored for a key, the way a crash or a full disk would.
    public typealias Damage = @Sendable (_ cache: any DataCache, _ key: CacheKey) async throws -> Void

    let makeCache: @Sendable () async throws -> any DataCache
    let damage: Damage?
    let byteLimit: Int?
    let evictionOrder: EvictionOrder
    let settle: @Sendable (any DataCache) async -> Void

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeCache: makes an empty cache (a fresh folder for a disk cache), called once per check.
    ///   - damage: corrupts the stored entry for a key (flips bytes of its file, truncates it…). The cache holds
    ///     only that entry when it is called, so damaging everything stored is fine. Without it the
    ///     damaged-entry check is not run.
    ///   - byteLimit: the most bytes of entry data the cache keeps, if it has such a limit.
    ///   - evictionOrder: the order the cache documents for eviction.
    ///   - settle: waits for work the cache does in the background (trimming) before the suite counts what is
    ///     left; the default does nothing.
    public init(
        makeCache: @escaping @Sendable () async throws -> any DataCache, damage: Damage? = nil, byteLimit: Int? = nil,
        evictionOrder: EvictionOrder = .leastRecentlyUsed,
        settle: @escaping @Sendable (any DataCache) async -> Void = { _ in }
    ) {
        self.makeCache = makeCache
        self.damage = damage
        self.byteLimit = byteLimit
        self.evictionOrder = evictionOrder
        self.settle = settle
    }

    public var title: String { "DataCache contract" }

    public var checks: [ContractCheck] {
        var checks = [
            check(.getsAfterSet) { try await $0.getsAfterSet($1) },
            check(.roundTripsMetadata) { try await $0.roundTripsMetadata($1) },
            check(.missesUnknownKeys) { try await $0.missesUnknownKeys($1) },
            check(.overwrites) { try await $0.overwrites($1) },
            check(.removes) { try await $0.removes($1) },
            check(.removesAll) { try await $0.removesAll($1) },
            check(.keepsKeysApart) { try await $0.keepsKeysApart($1) },
        ]
        if damage != nil { checks.append(check(.readsDamageAsMiss) { try await $0.readsDamageAsMiss($1) }) }
        if byteLimit != nil {
            checks.append(check(.holdsByteLimit) { try await $0.holdsByteLimit($1) })
            if evictionOrder != .unspecified { checks.append(check(.evictsInOrder) { try await $0.evictsInOrder($1) }) }
        }
        checks.append(check(.survivesConcurrentUse) { try await $0.survivesConcurrentUse($1) })
        return checks
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self, any DataCache) async throws -> Void)
        -> ContractCheck
    {
        ContractCheck(name.rawValue) {
            let cache: any DataCache
            do {
                cache = try await makeCache()
            } catch {
                throw ContractFailure("makeCache failed: \(error)")
            }
            try await body(self, cache)
        }
    }

    /// Stores, turning a thrown error into a failure.
    func store(_ entry: DataCacheEntry, _ key: CacheKey, in cache: any DataCache) async throws {
        do {
            try await cache.store(entry, for: key)
        } catch {
            throw ContractFailure(
                "storing \(entry.data.count) bytes for \"\(key)\" failed with \(Describe.error(error))")
        }
    }

    /// Distinct bytes for an entry.
    static func bytes(_ count: Int, seed: Int) -> Data {
        var random = SeededGenerator(seed: UInt64(seed) &+ 7)
        return Data(random.bytes(count))
    }

    static func key(_ index: Int) -> CacheKey { CacheKey("https://example.com/contract/\(index).png") }
}
