import ImagoCore

extension ImageCacheContract {
    func getsAfterSet(_ cache: any ImageCache) throws {
        let image = try SampleImages.gradient(width: 8, height: 8)
        cache.store(image, for: "contract://get")
        try contractRequire(cache.image(for: "contract://get") == image, "the image stored is not returned")
    }

    func missesUnknownKeys(_ cache: any ImageCache) throws {
        cache.store(try SampleImages.solid(width: 2, height: 2, seed: 1), for: "contract://known")
        try contractRequire(cache.image(for: "contract://unknown") == nil, "returned an image for a key never stored")
    }

    func overwrites(_ cache: any ImageCache) throws {
        let second = try SampleImages.solid(width: 3, height: 3, seed: 2)
        cache.store(try SampleImages.solid(width: 2, height: 2, seed: 1), for: "contract://key")
        cache.store(second, for: "contract://key")
        try contractRequire(cache.image(for: "contract://key") == second, "storing again did not replace the entry")
    }

    func removes(_ cache: any ImageCache) throws {
        let kept = try SampleImages.solid(width: 2, height: 2, seed: 2)
        cache.store(try SampleImages.solid(width: 2, height: 2, seed: 1), for: "contract://removed")
        cache.store(kept, for: "contract://kept")
        cache.removeImage(for: "contract://removed")
        try contractRequire(cache.image(for: "contract://removed") == nil, "the removed entry is still returned")
        try contractRequire(cache.image(for: "contract://kept") == kept, "removing one entry lost another")
    }

    func removesAll(_ cache: any ImageCache) throws {
        for index in 0..<3 {
            cache.store(try SampleImages.solid(width: 2, height: 2, seed: index), for: Self.key(index))
        }
        cache.removeAll()
        let left = (0..<3).filter { cache.image(for: Self.key($0)) != nil }
        try contractRequire(left.isEmpty, "\(left.count) entries are still returned after removeAll")
        let image = try SampleImages.solid(width: 2, height: 2, seed: 9)
        cache.store(image, for: Self.key(9))
        try contractRequire(cache.image(for: Self.key(9)) == image, "the cache keeps nothing after removeAll")
    }

    func holdsCountLimit(_ cache: any ImageCache) throws {
        guard let countLimit else { return }
        let stored = countLimit * 4 + 3
        for index in 0..<stored {
            cache.store(try SampleImages.solid(width: 2, height: 2, seed: index), for: Self.key(index))
        }
        let present = (0..<stored).filter { cache.image(for: Self.key($0)) != nil }
        try contractRequire(
            present.count <= countLimit,
            "keeps \(present.count) entries after \(stored) stores, over its limit of \(countLimit)")
        try contractRequire(present.contains(stored - 1), "the entry stored last is missing")
    }

    func holdsCostLimit(_ cache: any ImageCache) throws {
        guard let costLimit else { return }
        let (cost, capacity) = try entrySizing
        let stored = min(capacity, 256) * 4 + 3
        for index in 0..<stored { cache.store(try Self.image(cost: cost, seed: index), for: Self.key(index)) }
        let total = (0..<stored).compactMap { cache.image(for: Self.key($0))?.cost }.reduce(0, +)
        try contractRequire(
            total <= costLimit,
            "keeps \(total) bytes after \(stored) stores of \(cost) bytes, over its limit of \(costLimit)")
        try contractRequire(cache.image(for: Self.key(stored - 1)) != nil, "the entry stored last is missing")
    }

    func refusesOversizeEntries(_ cache: any ImageCache) throws {
        guard let entryCostLimit else { return }
        let small = try SampleImages.solid(width: 1, height: 1, seed: 1)
        cache.store(small, for: "contract://small")
        let large = try Self.image(cost: entryCostLimit + 4, seed: 2)
        cache.store(large, for: "contract://large")
        try contractRequire(
            cache.image(for: "contract://large") == nil,
            "kept an image of \(large.cost) bytes, over its entry limit of \(entryCostLimit)")
        try contractRequire(cache.image(for: "contract://small") == small, "an oversize image evicted a small one")
    }

    func evictsInOrder(_ cache: any ImageCache) throws {
        let (cost, capacity) = try entrySizing
        try contractRequire(capacity <= 4096, "the limits hold \(capacity) entries: give the contract smaller limits")
        for index in 0..<capacity { cache.store(try Self.image(cost: cost, seed: index), for: Self.key(index)) }
        let missing = (0..<capacity).filter { cache.image(for: Self.key($0)) == nil }
        try contractRequire(
            missing.isEmpty, "lost \(missing.count) of \(capacity) entries of \(cost) bytes before reaching its limits")
        // Read the first entry again: LRU must now keep it and evict the second.
        _ = cache.image(for: Self.key(0))
        cache.store(try Self.image(cost: cost, seed: capacity), for: Self.key(capacity))
        let (victim, survivor) = evictionOrder == .leastRecentlyUsed ? (1, 0) : (0, 1)
        let what = "after filling it with \(capacity) entries, reading the first and storing one more"
        try contractRequire(
            cache.image(for: Self.key(victim)) == nil,
            "\(what), entry \(victim) is still there (promised: \(evictionOrder.promise))")
        try contractRequire(
            cache.image(for: Self.key(survivor)) != nil,
            "\(what), entry \(survivor) was evicted (promised: \(evictionOrder.promise))")
        try contractRequire(cache.image(for: Self.key(capacity)) != nil, "\(what), the new entry is missing")
    }

    static func survivesConcurrentUse(_ cache: any ImageCache) async throws {
        let images = try (0..<32).map { try SampleImages.solid(width: 2, height: 2, seed: $0 + 1) }
        // Eight workers at once, each 500 random calls.
        let problems = await Blocking.concurrently(8, width: 8) { worker -> String? in
            var random = SeededGenerator(seed: UInt64(worker))
            for _ in 0..<500 {
                let index = Int.random(in: 0..<images.count, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: cache.store(images[index], for: key(index))
                case 4: cache.removeImage(for: key(index))
                default:
                    if let found = cache.image(for: key(index)), found != images[index] {
                        return "key \(index) returned another key's image"
                    }
                }
            }
            return nil
        }.compactMap { $0 }
        try contractRequire(problems.isEmpty, problems.prefix(3).joined(separator: "; "))
        cache.store(images[0], for: key(0))
        try contractRequire(
            cache.image(for: key(0)) == images[0], "after concurrent use, a stored image is not returned")
    }
}
