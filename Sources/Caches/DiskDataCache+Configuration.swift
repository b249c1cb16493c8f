import Foundation

extension DiskDataCache {
    /// Where and how much a disk cache keeps.
    public struct Configuration: Sendable, Hashable {
        /// The folder; `nil` picks `defaultDirectory()`.
        public var directory: URL?
        /// Most bytes of entry files kept; past it, the least recently used entries are removed (down to 90% of
        /// it, so that eviction does not run on every write).
        public var sizeLimit: Int
        /// Seconds after which an entry is removed even if used (counted from when it was stored); `nil` for no
        /// limit. Freshness is separate: see `CacheMetadata.expires`.
        public var maxAge: Double?
        /// Whether every write is flushed to the device (`fsync`) before it is renamed into place. Off by default:
        /// after a power loss an unflushed entry fails its checksum and reads as a miss, so flushing only saves
        /// the entry, at the cost of slower writes.
        public var synchronizesWrites: Bool
        /// Seconds the cache steps aside after a failed write (a full disk, a read-only folder) before it tries
        /// writing again; meanwhile stores fail at once, without touching the disk.
        public var retryInterval: Double
        /// The longest heuristic freshness, in seconds, of answers that carry no freshness information (see
        /// `DataCache.defaultMaxAge`); 7 days by default.
        public var defaultMaxAge: Double = CacheMetadata.standardDefaultMaxAge

        /// Creates a configuration.
        public init(
            directory: URL? = nil, sizeLimit: Int = 256 << 20, maxAge: Double? = nil, synchronizesWrites: Bool = false,
            retryInterval: Double = 60, defaultMaxAge: Double = CacheMetadata.standardDefaultMaxAge
        ) {
            self.defaultMaxAge = max(0, defaultMaxAge)
            self.directory = directory
            self.sizeLimit = max(0, sizeLimit)
            self.maxAge = maxAge
            self.synchronizesWrites = synchronizesWrites
            self.retryInterval = max(0, retryInterval)
        }

        /// `$IMAGO_CACHE_DIR` if set, else `$XDG_CACHE_HOME/imago`, else `~/.cache/imago`.
        public static func defaultDirectory(
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> URL {
            if let folder = environment["IMAGO_CACHE_DIR"], !folder.isEmpty {
                return URL(fileURLWithPath: folder, isDirectory: true)
            }
            // XDG asks to ignore relative paths.
            if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
                return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("imago", isDirectory: true)
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".cache", isDirectory: true)
                .appendingPathComponent("imago", isDirectory: true)
        }
    }

    /// Counters since the cache was made, and what its folder holds.
    public struct Stats: Sendable, Hashable {
        /// Entry files in the folder (as of the last scan, plus this process's changes since).
        public var entries = 0
        /// Bytes of those files.
        public var bytes = 0
        /// Reads that returned an entry.
        public var hits = 0
        /// Reads that returned nothing (absent, damaged, foreign or too old).
        public var misses = 0
        /// Entries written.
        public var writes = 0
        /// Entries removed to keep to the size limit or the maximum age.
        public var evictions = 0
        /// Damaged, partial or foreign files found and removed.
        public var damaged = 0
        /// Writes that failed or were refused while the cache stood aside.
        public var failedWrites = 0
    }
}
