import ImagoCore

/// The promises of an `ImageCache` of decoded images.
///
/// Give the cache small limits for the contract (tens of entries, a few hundred kilobytes): the suite fills it
/// several times over.
///
/// ```swift
/// let contract = ImageCacheContract(makeCache: { DictionaryImageCache(countLimit: 16) }, countLimit: 16)
/// let report = await contract.run()
/// #expect(report.passed, "\(report)")
/// ```
public struct ImageCacheContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case getsAfterSet = "returns what was stored"
        case missesUnknownKeys = "misses keys never stored"
        case overwrites = "replaces an entry stored again"
        case removes = "removes one entry, keeping the others"
        case removesAll = "removes every entry"
        case holdsCountLimit = "keeps at most its count limit under load"
        case holdsCostLimit = "keeps at most its cost limit under load"
        case refusesOversizeEntries = "does not keep an image over its entry limit"
        case evictsInOrder = "evicts in its documented order"
        case survivesConcurrentUse = "stays consistent under concurrent use"
    }

    let makeCache: @Sendable () throws -> any ImageCache
    let countLimit: Int?
    let costLimit: Int?
    let entryCostLimit: Int?
    let evictionOrder: EvictionOrder

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeCache: makes an empty cache with the limits below (called once per check).
    ///   - countLimit: the most entries the cache keeps, if it has such a limit.
    ///   - costLimit: the most `DecodedImage.cost` bytes it keeps, if it has such a limit.
    ///   - entryCostLimit: the most cost one image may have to be kept, if it has such a limit.
    ///   - evictionOrder: the order the cache documents for eviction.
    public init(
        makeCache: @escaping @Sendable () throws -> any ImageCache, countLimit: Int? = nil, costLimit: Int? = nil,
        entryCostLimit: Int? = nil, evictionOrder: EvictionOrder = .leastRecentlyUsed
    ) {
        self.makeCache = makeCache
        self.countLimit = countLimit
        self.costLimit = costLimit
        self.entryCostLimit = entryCostLimit
        self.evictionOrder = evictionOrder
    }

    public var title: String {
        let name = (try? makeCache()).map { "\(type(of: $0))" } ?? "?"
        return "ImageCache contract (\(name))"
    }

    public var checks: [ContractCheck] {
        var checks = [
            check(.getsAfterSet) { try $0.getsAfterSet($1) },
            check(.missesUnknownKeys) { try $0.missesUnknownKeys($1) },
            check(.overwrites) { try $0.overwrites($1) },
            check(.removes) { try $0.removes($1) },
            check(.removesAll) { try $0.removesAll($1) },
        ]
        if countLimit != nil { checks.append(check(.holdsCountLimit) { try $0.holdsCountLimit($1) }) }
        if costLimit != nil { checks.append(check(.holdsCostLimit) { try $0.holdsCostLimit($1) }) }
        if entryCostLimit != nil { checks.append(check(.refusesOversizeEntries) { try $0.refusesOversizeEntries($1) }) }
        if evictionOrder != .unspecified, countLimit != nil || costLimit != nil {
            checks.append(check(.evictsInOrder) { try $0.evictsInOrder($1) })
        }
        let makeCache = self.makeCache
        checks.append(
            ContractCheck(Check.survivesConcurrentUse.rawValue) {
                try await Self.survivesConcurrentUse(try makeCache())
            })
        return checks
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self, any ImageCache) throws -> Void)
        -> ContractCheck
    {
        ContractCheck.blocking(name.rawValue) { try body(self, try makeCache()) }
    }

    /// The cost of each entry in the limit and eviction checks, and how many such entries fit.
    var entrySizing: (cost: Int, capacity: Int) {
        get throws {
            var cost = 64
            if let costLimit { cost = max(costLimit / min(countLimit ?? 8, 8), 4) }
            if let entryCostLimit { cost = min(cost, entryCostLimit) }
            cost -= cost % 4
            try contractRequire(cost >= 4, "the limits leave no room for a one-pixel image")
            let capacity = min(countLimit ?? .max, costLimit.map { $0 / cost } ?? .max)
            try contractRequire(capacity >= 2, "the limits hold fewer than two \(cost)-byte images")
            return (cost, capacity)
        }
    }

    /// A one-row image of `cost` bytes, distinguishable by `seed`.
    static func image(cost: Int, seed: Int) throws -> DecodedImage {
        try SampleImages.solid(width: max(cost / 4, 1), height: 1, seed: seed)
    }

    static func key(_ index: Int) -> CacheKey { CacheKey("contract://image/\(index)") }
}
