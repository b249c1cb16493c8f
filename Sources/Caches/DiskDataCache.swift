import Dispatch
import Foundation
import Synchronization

/// A disk cache of encoded bytes and their HTTP metadata, in one folder, that never serves damage.
///
/// Each entry is one file named after the SHA-256 of its key, holding a header (magic, version, lengths,
/// checksum), the key, the metadata and the bytes. Writes go to a temporary file renamed into place, so a process
/// killed at any moment leaves either the old entry or the new one; reads check the lengths, the key and the
/// checksum, and remove a partial, damaged or foreign file, reading it as a miss. Several processes may share the
/// folder: each write is atomic, each read verified, and eviction tolerates files vanishing under it.
///
/// The size limit holds while the cache is used: a write that takes the folder past it removes the least
/// recently used entries (the cache records each use in the file's modification time, since `noatime` mounts do
/// not keep access times). A write failure (a full disk, a read-only folder) makes the cache step aside for
/// `retryInterval`: reads go on, stores throw `cacheFailed` at once, and the error is reported once through
/// `onError` and `lastError`.
///
/// File I/O runs on a bounded set of I/O threads (`WorkExecutor.io`), off the cooperative thread pool. The first
/// scan of the folder and eviction run there in the background, so neither delays a read or a write; a write
/// that takes the folder past its limit starts the eviction at once, and `waitForMaintenance()` waits for it.
public final class DiskDataCache: DataCache {
    struct State {
        /// Entry file name to size, from the last scan plus this process's changes since.
        var sizes: [String: Int] = [:]
        var totalBytes = 0
        var scanned = false
        var sweeping = false
        /// A background sweep is queued or running.
        var sweepScheduled = false
        /// A sweep was asked for while one was queued or running.
        var sweepRequestedAgain = false
        var bytesWrittenSinceScan = 0
        /// Entries written while a sweep ran, which its scan may have missed.
        var writtenDuringSweep: [String: Int] = [:]
        var stats = Stats()
        var lastError: ImagoError?
        /// While set, stores fail at once; cleared by the first write that succeeds after it.
        var failedUntil: Date?
        var errorReported = false
    }

    /// The folder of the entries.
    public let directory: URL
    /// The limits this cache was made with (`directory` resolved).
    public let configuration: Configuration
    let state = Mutex(State())
    let files: CacheFiles
    let now: @Sendable () -> Date
    private let onError: (@Sendable (ImagoError) -> Void)?
    private let executor = WorkExecutor.io
    /// Entered by each background sweep while it is queued or running.
    private let maintenance = DispatchGroup()
    static let entryExtension = ".imago"
    static let temporaryPrefix = ".imago-tmp-"

    /// A cache in `configuration.directory` (or the default folder), created on the first write.
    ///
    /// `onError` is called once when a write fails (again only after a later write succeeded); `now` is the clock
    /// for access times and `maxAge` (tests inject one).
    public convenience init(
        configuration: Configuration = Configuration(), onError: (@Sendable (ImagoError) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(configuration: configuration, onError: onError, now: now, files: CacheFiles())
    }

    init(
        configuration: Configuration, onError: (@Sendable (ImagoError) -> Void)?, now: @escaping @Sendable () -> Date,
        files: CacheFiles
    ) {
        var configuration = configuration
        let directory = (configuration.directory ?? Configuration.defaultDirectory()).standardizedFileURL
        configuration.directory = directory
        self.directory = directory
        self.configuration = configuration
        self.onError = onError
        self.now = now
        self.files = files
    }

    /// The cap on heuristic freshness, from the configuration.
    public var defaultMaxAge: Double { configuration.defaultMaxAge }

    /// The last write error, if the cache has stepped aside since its last successful write.
    public var lastError: ImagoError? { state.withLock { $0.lastError } }

    public func entry(for key: CacheKey) async -> DataCacheEntry? {
        scanInBackgroundIfNeeded()
        return await offPool { self.readEntry(for: key) }
    }

    /// Stores `entry` atomically. Throws `cacheFailed` when the write fails or the cache stands aside after a
    /// failure; an entry larger than `sizeLimit` is skipped without error (it would only evict everything else).
    public func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        scanInBackgroundIfNeeded()
        try await offPool { () throws(ImagoError) in try self.writeEntry(entry, for: key) }.get()
    }

    /// Waits until the background scan and eviction started so far are done (the folder is then within its
    /// limit).
    public func waitForMaintenance() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            maintenance.notify(queue: .global()) { continuation.resume() }
        }
    }

    public func removeEntry(for key: CacheKey) async {
        await offPool {
            let name = Self.fileName(for: key)
            self.files.remove(self.path(of: name))
            self.forget(name)
        }
    }

    /// Removes every entry file (other files in the folder are left alone).
    public func removeAll() async {
        await offPool {
            for name in self.files.names(in: self.directory.path) where Self.isEntryName(name) {
                self.files.remove(self.path(of: name))
            }
            self.state.withLock { state in
                state.sizes = [:]
                state.totalBytes = 0
                state.bytesWrittenSinceScan = 0
                state.scanned = true
            }
        }
    }

    /// Counters, and the entries and bytes in the folder (scanned on the first call).
    public func stats() async -> Stats {
        await waitForMaintenance()
        return await offPool {
            if !self.state.withLock({ $0.scanned }) { self.sweep() }
            return self.state.withLock { state in
                var stats = state.stats
                stats.entries = state.sizes.count
                stats.bytes = state.totalBytes
                return stats
            }
        }
    }

    /// The file name of `key`'s entry: the SHA-256 of the key in hex.
    static func fileName(for key: CacheKey) -> String { SHA256.hex(Array(key.rawValue.utf8)) + entryExtension }

    static func isEntryName(_ name: String) -> Bool {
        name.count == 64 + entryExtension.count && name.hasSuffix(entryExtension)
            && name.utf8.prefix(64).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    func path(of name: String) -> String { directory.appendingPathComponent(name).path }

    private func readEntry(for key: CacheKey) -> DataCacheEntry? {
        let name = Self.fileName(for: key)
        let path = path(of: name)
        let time = now()
        switch files.read(path, key: key, accessTime: time) {
        case .missing:
            forget(name) { $0.stats.misses += 1 }
            return nil
        case .invalid(let identity):
            files.remove(path, ifStill: identity)
            forget(name) {
                $0.stats.damaged += 1
                $0.stats.misses += 1
            }
            return nil
        case .entry(var entry):
            entry.layer = "disk"
            if let maxAge = configuration.maxAge, time.timeIntervalSince(entry.metadata.storedAt) > maxAge {
                files.remove(path)
                forget(name) {
                    $0.stats.evictions += 1
                    $0.stats.misses += 1
                }
                return nil
            }
            state.withLock { $0.stats.hits += 1 }
            return entry
        }
    }

    private func writeEntry(_ entry: DataCacheEntry, for key: CacheKey) throws(ImagoError) {
        let time = now()
        if let error = state.withLock({ state -> ImagoError? in
            guard let until = state.failedUntil, time < until else { return nil }
            state.stats.failedWrites += 1
            return state.lastError
        }) {
            throw error
        }
        let prefix: Data
        do {
            prefix = try CacheEntryCodec.prefix(for: entry, key: key)
        } catch {
            throw ImagoError(.cacheFailed, "disk cache: cannot encode the metadata of \(key): \(error)")
        }
        let size = prefix.count + entry.data.count
        // An entry larger than the whole cache would only evict everything and then itself.
        guard size <= configuration.sizeLimit else { return }
        let name = Self.fileName(for: key)
        let temporary = Self.temporaryPrefix + "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        do throws(CacheFiles.Failure) {
            try files.createDirectory(directory.path)
            try files.writeAtomically(
                prefix: prefix, body: entry.data, to: path(of: name), temporaryPath: path(of: temporary),
                accessTime: time, synchronize: configuration.synchronizesWrites)
        } catch {
            throw recordFailure(error, at: time)
        }
        let needsSweep = state.withLock { state in
            state.failedUntil = nil
            state.lastError = nil
            state.errorReported = false
            state.stats.writes += 1
            state.totalBytes += size - (state.sizes.updateValue(size, forKey: name) ?? 0)
            state.bytesWrittenSinceScan += size
            if state.sweeping { state.writtenDuringSweep[name] = size }
            return state.scanned
                && (state.totalBytes > configuration.sizeLimit
                    || state.bytesWrittenSinceScan > configuration.sizeLimit / 8)
        }
        if needsSweep { sweepInBackground() }
    }

    private func recordFailure(_ failure: CacheFiles.Failure, at time: Date) -> ImagoError {
        let error = ImagoError(.cacheFailed, "disk cache stepped aside: \(failure.message)", source: directory.path)
        let report = state.withLock { state in
            state.stats.failedWrites += 1
            state.lastError = error
            state.failedUntil = time.addingTimeInterval(configuration.retryInterval)
            defer { state.errorReported = true }
            return !state.errorReported
        }
        if report { onError?(error) }
        return error
    }

    /// Drops `name` from the size accounting, after its file was removed.
    func forget(_ name: String, update: (inout State) -> Void = { _ in }) {
        state.withLock { state in
            state.totalBytes -= state.sizes.removeValue(forKey: name) ?? 0
            update(&state)
        }
    }

    /// The first use of the cache scans its folder in the background (sizes and ages of what other runs left).
    private func scanInBackgroundIfNeeded() {
        if !state.withLock({ $0.scanned || $0.sweepScheduled }) { sweepInBackground() }
    }

    /// Queues a sweep unless one is queued or running (that one repeats while the folder stays over its limit).
    func sweepInBackground() {
        let schedule = state.withLock { state in
            guard !state.sweepScheduled else {
                state.sweepRequestedAgain = true
                return false
            }
            state.sweepScheduled = true
            return true
        }
        guard schedule else { return }
        maintenance.enter()
        executor.execute {
            self.sweep()
            // A write that asked for a sweep while this one ran may have come after its last look.
            let again = self.state.withLock { state in
                state.sweepScheduled = false
                defer { state.sweepRequestedAgain = false }
                return state.sweepRequestedAgain
            }
            if again { self.sweepInBackground() }
            self.maintenance.leave()
        }
    }

    private func offPool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await executor.runToCompletion(work)
    }

    private func offPool<Value: Sendable>(
        _ work: @escaping @Sendable () throws(ImagoError) -> Value
    ) async -> Swift.Result<Value, ImagoError> {
        await offPool { () -> Swift.Result<Value, ImagoError> in
            do throws(ImagoError) { return .success(try work()) } catch { return .failure(error) }
        }
    }
}
