import Foundation
import ImagoCore
import Synchronization

/// A complete example data cache: entries in memory with a checksum, least-recently-used eviction past a byte
/// limit.
///
/// It shows the promise every data cache keeps that a memory one could skip: an entry whose bytes do not match
/// what was stored (for a disk cache: a torn write, a full disk, a foreign file) reads as a miss and is removed.
final class DictionaryDataCache: DataCache {
    let byteLimit: Int

    private struct Stored {
        var data: Data
        var metadata: CacheMetadata
        var checksum: [UInt8]
        var lastUse: UInt64
    }
    private struct State {
        var entries: [CacheKey: Stored] = [:]
        var clock: UInt64 = 0
        var totalBytes = 0
    }
    private let state = Mutex(State())

    init(byteLimit: Int = 16 * 1024 * 1024) {
        self.byteLimit = max(byteLimit, 1)
    }

    func entry(for key: CacheKey) async -> DataCacheEntry? {
        state.withLock { state in
            guard var stored = state.entries[key] else { return nil }
            guard Self.checksum(stored.data) == stored.checksum else {
                Self.remove(key, from: &state)
                return nil
            }
            state.clock += 1
            stored.lastUse = state.clock
            state.entries[key] = stored
            return DataCacheEntry(data: stored.data, metadata: stored.metadata)
        }
    }

    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        guard entry.data.count <= byteLimit else {
            throw ImagoError(.cacheFailed, "\(entry.data.count) bytes exceed the cache's limit", source: key.rawValue)
        }
        let checksum = Self.checksum(entry.data)
        state.withLock { state in
            Self.remove(key, from: &state)
            state.clock += 1
            state.entries[key] = Stored(
                data: entry.data, metadata: entry.metadata, checksum: checksum, lastUse: state.clock)
            state.totalBytes += entry.data.count
            while state.totalBytes > byteLimit {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
                Self.remove(oldest, from: &state)
            }
        }
    }

    func removeEntry(for key: CacheKey) async { state.withLock { Self.remove(key, from: &$0) } }

    func removeAll() async { state.withLock { $0 = State() } }

    /// Flips a byte of the stored entry, as a damaged disk would: for the contract's damaged-entry check.
    func damageEntry(for key: CacheKey) {
        state.withLock { state in
            guard var stored = state.entries[key], !stored.data.isEmpty else { return }
            stored.data[stored.data.startIndex] ^= 0xFF
            state.entries[key] = stored
        }
    }

    private static func checksum(_ data: Data) -> [UInt8] {
        var hash = SHA256()
        hash.update(data)
        return hash.finalize()
    }

    private static func remove(_ key: CacheKey, from state: inout State) {
        if let old = state.entries.removeValue(forKey: key) { state.totalBytes -= old.data.count }
    }
}
