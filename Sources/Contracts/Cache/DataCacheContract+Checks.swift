import Foundation
import ImagoCore

extension DataCacheContract {
    func getsAfterSet(_ cache: any DataCache) async throws {
        for (index, size) in [1, 1000, min(300_000, (byteLimit ?? .max) / 2)].enumerated() {
            let data = Self.bytes(size, seed: index)
            try await store(DataCacheEntry(data: data), Self.key(index), in: cache)
            let found = await cache.entry(for: Self.key(index))
            try contractRequire(found != nil, "the \(size)-byte entry stored is not returned")
            try contractRequire(found?.data == data, "the \(size)-byte entry comes back with other bytes")
        }
    }

    func roundTripsMetadata(_ cache: any DataCache) async throws {
        let metadata = CacheMetadata(
            etag: "\"5d8c-1a2b\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            expires: Date(timeIntervalSince1970: 1_900_000_000), storedAt: Date(timeIntervalSince1970: 1_800_000_000),
            contentType: "image/png")
        try await store(
            DataCacheEntry(data: Self.bytes(100, seed: 1), metadata: metadata), "contract://meta", in: cache)
        guard let found = await cache.entry(for: "contract://meta")?.metadata else {
            throw ContractFailure("the entry stored is not returned")
        }
        var problems: [String] = []
        if found.etag != metadata.etag { problems.append("etag \(found.etag ?? "nil")") }
        if found.lastModified != metadata.lastModified {
            problems.append("lastModified \(found.lastModified ?? "nil")")
        }
        if found.contentType != metadata.contentType { problems.append("contentType \(found.contentType ?? "nil")") }
        if !Self.same(found.expires, metadata.expires) {
            problems.append("expires \(found.expires.map { "\($0)" } ?? "nil")")
        }
        if !Self.same(found.storedAt, metadata.storedAt) { problems.append("storedAt \(found.storedAt)") }
        try contractRequire(problems.isEmpty, "metadata came back changed: \(problems.joined(separator: ", "))")
        // No freshness information must stay none.
        try await store(
            DataCacheEntry(data: Self.bytes(10, seed: 2), metadata: CacheMetadata()), "contract://bare", in: cache)
        let bare = await cache.entry(for: "contract://bare")?.metadata
        try contractRequire(
            bare?.etag == nil && bare?.lastModified == nil && bare?.expires == nil,
            "empty metadata came back with validators or an expiry")
    }

    func missesUnknownKeys(_ cache: any DataCache) async throws {
        try await store(DataCacheEntry(data: Self.bytes(10, seed: 1)), "contract://known", in: cache)
        try contractRequire(
            await cache.entry(for: "contract://unknown") == nil, "returned an entry for a key never stored")
    }

    func overwrites(_ cache: any DataCache) async throws {
        let second = DataCacheEntry(data: Self.bytes(50, seed: 2), metadata: CacheMetadata(etag: "\"second\""))
        try await store(
            DataCacheEntry(data: Self.bytes(80, seed: 1), metadata: CacheMetadata(etag: "\"first\"")), "contract://key",
            in: cache)
        try await store(second, "contract://key", in: cache)
        let found = await cache.entry(for: "contract://key")
        try contractRequire(
            found?.data == second.data && found?.metadata.etag == "\"second\"",
            "storing again did not replace the entry")
    }

    func removes(_ cache: any DataCache) async throws {
        let kept = Self.bytes(20, seed: 2)
        try await store(DataCacheEntry(data: Self.bytes(20, seed: 1)), "contract://removed", in: cache)
        try await store(DataCacheEntry(data: kept), "contract://kept", in: cache)
        await cache.removeEntry(for: "contract://removed")
        try contractRequire(await cache.entry(for: "contract://removed") == nil, "the removed entry is still returned")
        try contractRequire(await cache.entry(for: "contract://kept")?.data == kept, "removing one entry lost another")
    }

    func removesAll(_ cache: any DataCache) async throws {
        for index in 0..<3 {
            try await store(DataCacheEntry(data: Self.bytes(30, seed: index)), Self.key(index), in: cache)
        }
        await cache.removeAll()
        var left = 0
        for index in 0..<3 where await cache.entry(for: Self.key(index)) != nil { left += 1 }
        try contractRequire(left == 0, "\(left) entries are still returned after removeAll")
        let data = Self.bytes(30, seed: 9)
        try await store(DataCacheEntry(data: data), Self.key(9), in: cache)
        try contractRequire(
            await cache.entry(for: Self.key(9))?.data == data, "the cache keeps nothing after removeAll")
    }

    func keepsKeysApart(_ cache: any DataCache) async throws {
        let keys: [CacheKey] = [
            "https://example.com/a.png", "https://example.com/a.png?size=2", "https://example.com/A.png",
            "https://example.com/a.png#x", "file:///tmp/ä ö/🙂.png", "data:image/png;base64,iVBORw0KGgo=",
            "../../etc/passwd", "a/b\\c:d*e?f\"g<h>i|j", "line\nbreak\u{0}nul",
            CacheKey(String(repeating: "long/", count: 600)),
        ]
        for (index, key) in keys.enumerated() {
            try await store(DataCacheEntry(data: Self.bytes(64, seed: index)), key, in: cache)
        }
        for (index, key) in keys.enumerated() {
            let found = await cache.entry(for: key)
            try contractRequire(
                found != nil, "the entry for key \(key.rawValue.prefix(40).debugDescription) is missing")
            try contractRequire(
                found?.data == Self.bytes(64, seed: index),
                "key \(key.rawValue.prefix(40).debugDescription) returns another key's bytes")
        }
    }

    func readsDamageAsMiss(_ cache: any DataCache) async throws {
        guard let damage else { return }
        let data = Self.bytes(4096, seed: 1)
        let key: CacheKey = "https://example.com/contract/damaged.png"
        try await store(DataCacheEntry(data: data, metadata: CacheMetadata(etag: "\"e\"")), key, in: cache)
        do {
            try await damage(cache, key)
        } catch {
            throw ContractFailure("the damage closure failed: \(error)")
        }
        if let found = await cache.entry(for: key) {
            throw ContractFailure(
                "the damaged entry was served (\(found.data.count) bytes, "
                    + (found.data == data
                        ? "equal to the stored ones: does the damage closure damage anything?)" : "wrong bytes)"))
        }
        try contractRequire(await cache.entry(for: key) == nil, "the damaged entry was served on the second read")
        try await store(DataCacheEntry(data: data), key, in: cache)
        try contractRequire(
            await cache.entry(for: key)?.data == data, "after damage, storing the key again does not work")
    }

    static func same(_ a: Date?, _ b: Date?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a.timeIntervalSince(b)) < 0.001
        default: false
        }
    }
}
