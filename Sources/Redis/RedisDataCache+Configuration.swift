import Foundation

extension RedisDataCache {
    /// Where the Redis server is and how the cache uses it.
    public struct Configuration: Sendable, Hashable {
        /// The server, from `redis://[:password@]host:port/db`.
        public var endpoint: RedisEndpoint
        /// What every key of this cache starts with; `removeAll`, `contents` and `imago cache clear` touch only
        /// keys under it, so several caches (or other data) can share one database.
        public var keyPrefix: String
        /// Seconds an entry lives, set with each write (`SET … EX`); 0 for no expiry.
        public var timeToLive: Int
        /// Entries with more bytes are not stored (an older entry for the key is removed instead).
        public var maxEntryBytes: Int
        /// Seconds for connecting and for each command; a load never waits longer for the cache.
        public var timeout: Double
        /// Seconds the cache stands aside after a failure: reads miss and writes fail at once, without Redis.
        public var retryInterval: Double
        /// Connections (each with a thread of its own).
        public var poolSize: Int

        /// Creates a configuration.
        public init(
            endpoint: RedisEndpoint = RedisEndpoint(host: "127.0.0.1"), keyPrefix: String = "imago:",
            timeToLive: Int = 604_800, maxEntryBytes: Int = 10 << 20, timeout: Double = 0.25,
            retryInterval: Double = 5, poolSize: Int = 4
        ) {
            self.endpoint = endpoint
            self.keyPrefix = keyPrefix
            self.timeToLive = max(0, timeToLive)
            self.maxEntryBytes = max(0, maxEntryBytes)
            self.timeout = max(0.001, timeout)
            self.retryInterval = max(0, retryInterval)
            self.poolSize = max(1, poolSize)
        }
    }

    /// Counters since the cache was made.
    public struct Stats: Sendable, Hashable {
        /// Reads that returned an entry.
        public var hits = 0
        /// Reads that returned nothing (absent, damaged, or Redis unavailable).
        public var misses = 0
        /// Entries written.
        public var writes = 0
        /// Damaged, truncated or foreign values found (and deleted).
        public var damaged = 0
        /// Entries over `maxEntryBytes`, not stored.
        public var oversized = 0
        /// Calls that failed (no connection, a timeout, a refused login, an error reply).
        public var failures = 0
        /// Calls not made because the cache stood aside after a failure.
        public var skipped = 0
    }

    /// What Redis holds under the key prefix.
    public struct Contents: Sendable, Hashable {
        /// Keys under the prefix.
        public var entries: Int
        /// Bytes of their values.
        public var bytes: Int
    }
}
