import Foundation
import ImagoCore

extension DataCacheContract {
    func holdsByteLimit(_ cache: any DataCache) async throws {
        guard let byteLimit else { return }
        let size = max(byteLimit / 8, 1)
        let stored = 35
        for index in 0..<stored {
            try await store(DataCacheEntry(data: Self.bytes(size, seed: index)), Self.key(index), in: cache)
        }
        await settle(cache)
        var total = 0
        for index in 0..<stored { total += await cache.entry(for: Self.key(index))?.data.count ?? 0 }
        try contractRequire(
            total <= byteLimit,
            "keeps \(total) bytes after \(stored) stores of \(size) bytes, over its limit of \(byteLimit)")
        try contractRequire(await cache.entry(for: Self.key(stored - 1)) != nil, "the entry stored last is missing")
    }

    /// Fills the cache to three quarters of its limit, reads the first entry, then stores past the limit: with
    /// LRU the first entry stays and the second goes; with FIFO the first goes.
    func evictsInOrder(_ cache: any DataCache) async throws {
        guard let byteLimit else { return }
        let size = max(byteLimit / 8, 1)
        for index in 0..<6 {
            try await store(DataCacheEntry(data: Self.bytes(size, seed: index)), Self.key(index), in: cache)
        }
        await settle(cache)
        for index in 0..<6 {
            try contractRequire(
                await cache.entry(for: Self.key(index)) != nil,
                "lost entry \(index) at three quarters of its byte limit")
        }
        _ = await cache.entry(for: Self.key(0))
        // One eighth over the limit: the victim goes first even for a cache that trims well below its limit.
        for index in 6..<9 {
            try await store(DataCacheEntry(data: Self.bytes(size, seed: index)), Self.key(index), in: cache)
        }
        await settle(cache)
        let (victim, survivor) = evictionOrder == .leastRecentlyUsed ? (1, 0) : (0, 1)
        let what = "after storing 6 entries, reading the first and storing 3 more (each 1/8 of the limit)"
        try contractRequire(
            await cache.entry(for: Self.key(victim)) == nil,
            "\(what), entry \(victim) is still there (promised: \(evictionOrder.promise))")
        try contractRequire(
            await cache.entry(for: Self.key(survivor)) != nil,
            "\(what), entry \(survivor) was evicted (promised: \(evictionOrder.promise))")
    }

    func survivesConcurrentUse(_ cache: any DataCache) async throws {
        let payloads = (0..<16).map { Self.bytes(2000 + $0 * 37, seed: $0 + 100) }
        let problems = await withTaskGroup(of: String?.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var random = SeededGenerator(seed: UInt64(worker) + 40)
                    for _ in 0..<100 {
                        let index = Int.random(in: 0..<payloads.count, using: &random)
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<4:
                            do {
                                try await cache.store(DataCacheEntry(data: payloads[index]), for: Self.key(index))
                            } catch {
                                return "storing key \(index) failed with \(Describe.error(error))"
                            }
                        case 4: await cache.removeEntry(for: Self.key(index))
                        default:
                            if let found = await cache.entry(for: Self.key(index)), found.data != payloads[index] {
                                return "key \(index) returned \(found.data.count) bytes that are not the ones stored"
                            }
                        }
                    }
                    return nil
                }
            }
            var found: [String] = []
            for await problem in group { if let problem { found.append(problem) } }
            return found
        }
        try contractRequire(problems.isEmpty, problems.prefix(3).joined(separator: "; "))
        try await store(DataCacheEntry(data: payloads[0]), Self.key(0), in: cache)
        try contractRequire(
            await cache.entry(for: Self.key(0))?.data == payloads[0],
            "after concurrent use, a stored entry is not returned")
    }
}
