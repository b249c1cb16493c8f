import Foundation
import Synchronization

/// A data cache in Redis, shared by every process and machine that points at the same server.
///
/// Each entry is one Redis string under `keyPrefix` + the SHA-256 of its key, holding the same self-checking
/// layout as a disk cache file (`CacheEntryCodec`: header, key, metadata, bytes, checksum) and written with the
/// configured time to live. A value that is truncated, fails its checksum or holds another key reads as a miss and
/// is deleted.
///
/// Redis is an optimisation, never a dependency: when it is down, slow, restarted or refuses the login, reads
/// miss and writes fail within `timeout`, the failure is reported once per outage (to `onError`, to the loader's
/// events through `entry(for:reporting:)` or a thrown write error, and kept in `reportedError`), and the cache stands
/// aside for `retryInterval` (no call is made: reads miss, writes are skipped) before trying Redis again.
/// hiredis blocks, so every call runs on the cache's own worker threads (one per pooled connection).
public final class RedisDataCache: DataCache {
    struct State {
        /// The counters but `failures` and `skipped`, which `outage` keeps.
        var stats = Stats()
    }

    /// The configuration the cache was made with.
    public let configuration: Configuration
    let workers: RedisWorkers
    let state = Mutex(State())
    /// Standing aside after a failure, and reporting it once per outage.
    let outage: OutageGate
    private let onError: (@Sendable (ImagoError) -> Void)?
    /// The name this cache gives the entries it returns (`DataCacheEntry.layer`).
    public static let layerName = "redis"

    /// A cache on the configured server; connections open when first needed, so a server that is down at start
    /// costs one failed call and a report, not an error here.
    ///
    /// `onError` is called once per outage: at the first failure, and again only after a call succeeded.
    public init(
        configuration: Configuration, onError: (@Sendable (ImagoError) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.onError = onError
        outage = OutageGate(retryInterval: configuration.retryInterval, now: now)
        workers = RedisWorkers(
            count: configuration.poolSize, endpoint: configuration.endpoint, timeout: configuration.timeout)
    }

    /// Counters since the cache was made.
    public var stats: Stats {
        var stats = state.withLock { $0.stats }
        (stats.failures, stats.skipped) = (outage.failures, outage.skipped)
        return stats
    }
    /// The last failure, while the cache stands aside or until a call succeeds again.
    public var lastError: ImagoError? { outage.lastError }
    /// The first failure this cache reported, if any: what the CLI warns about once, even after a recovery.
    public var reportedError: ImagoError? { outage.firstError }

    /// The Redis key of `key`: the prefix and the SHA-256 of the key in hex.
    public func redisKey(for key: CacheKey) -> String {
        configuration.keyPrefix + SHA256.hex(Array(key.rawValue.utf8))
    }

    public func entry(for key: CacheKey) async -> DataCacheEntry? {
        await entry(for: key, reporting: .ignoring)
    }

    /// The entry for `key`; a failure of Redis is a miss, reported to `failures` (as to `onError`) when it is the
    /// first of an outage, so the loader shows it once as an event.
    public func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        guard outage.enter() else {
            state.withLock { $0.stats.misses += 1 }
            return nil
        }
        let name = Data(redisKey(for: key).utf8)
        let get = { @Sendable (session: RedisSession) throws(RedisFailure) in
            try session.command([Data("GET".utf8), name])
        }
        switch await call(reporting: failures, get).result {
        case .success(.string(let stored)):
            if var entry = CacheEntryCodec.decode(stored, key: key) {
                entry.layer = Self.layerName
                state.withLock { $0.stats.hits += 1 }
                return entry
            }
            await discardDamaged(name)
        case .success(.error(let reason)) where reason.hasPrefix("WRONGTYPE"):
            await discardDamaged(name)  // another program's key of another type under our prefix
        case .success(.null), .success(.error), .failure:
            break  // a miss; a failure was recorded by `call`
        case .success(let reply):
            if let error = recordFailure(RedisFailure(message: "unexpected reply to GET: \(reply)")).new {
                failures.report(error)
            }
        }
        state.withLock { $0.stats.misses += 1 }
        return nil
    }

    /// Stores `entry` with the configured time to live. An entry over `maxEntryBytes` is not stored (and an older
    /// one for the key is removed, so it cannot be served instead). Throws `cacheFailed` when the write fails with
    /// a new failure (the first of an outage); while the cache stands aside after a reported failure, a write is
    /// skipped without error, so an outage is reported once and not once per load.
    public func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        guard entry.data.count <= configuration.maxEntryBytes else {
            state.withLock { $0.stats.oversized += 1 }
            await removeEntry(for: key)
            return
        }
        guard outage.enter() else { return }
        let stored: Data
        do {
            stored = try CacheEntryCodec.encode(entry, key: key)
        } catch {
            throw ImagoError(.cacheFailed, "redis cache: cannot encode the metadata of \(key): \(error)")
        }
        let expiry = configuration.timeToLive > 0 ? [Data("EX".utf8), Data(String(configuration.timeToLive).utf8)] : []
        let command = [Data("SET".utf8), Data(redisKey(for: key).utf8), stored] + expiry
        let outcome = await call { session throws(RedisFailure) in try session.command(command) }
        switch outcome.result {
        case .success(.status("OK")):
            state.withLock { $0.stats.writes += 1 }
        case .success(.error), .failure:
            if let error = outcome.newFailure { throw error }  // else already reported
        case .success(let reply):
            if let error = recordFailure(RedisFailure(message: "unexpected reply to SET: \(reply)")).new { throw error }
        }
    }

    public func removeEntry(for key: CacheKey) async {
        guard outage.enter() else { return }
        let name = Data(redisKey(for: key).utf8)
        _ = await call { session throws(RedisFailure) in try session.command([Data("DEL".utf8), name]) }
    }

    /// Removes every key under the prefix (other keys are left alone).
    public func removeAll() async {
        _ = try? await removeAllEntries()
    }

    /// What a call gave, and the failure it reported if it was the first of an outage.
    struct Outcome {
        var result: Result<RedisReply, RedisFailure>
        var newFailure: ImagoError?
    }

    /// Runs `body` on a worker within `timeout`; records the outcome (a failure once, to `onError` and
    /// `failures`; a success clears it).
    func call(
        deadline: Double? = nil, reporting failures: CacheFailureReporter = .ignoring,
        _ body: @escaping @Sendable (RedisSession) throws(RedisFailure) -> RedisReply
    ) async -> Outcome {
        // A call that began before a failure must not clear it by succeeding late.
        let failuresBefore = outage.failures
        let result = await workers.run(deadline: deadline ?? configuration.timeout, body)
        var newFailure: ImagoError?
        switch result {
        case .success(.error(let reason)) where !reason.hasPrefix("WRONGTYPE"):
            newFailure = recordFailure(RedisFailure(message: reason)).new
        case .success:
            outage.succeeded(since: failuresBefore)
        case .failure(let failure):
            newFailure = recordFailure(failure).new
        }
        if let newFailure { failures.report(newFailure) }
        return Outcome(result: result, newFailure: newFailure)
    }

    /// Records a failure and stands aside; returns the error, and the same as `new` when it is the first of an
    /// outage (it was then given to `onError`).
    @discardableResult
    func recordFailure(_ failure: RedisFailure) -> (error: ImagoError, new: ImagoError?) {
        let error = ImagoError(
            .cacheFailed,
            "redis cache stepped aside for \(String(format: "%g", configuration.retryInterval)) s: \(failure.message)",
            source: configuration.endpoint.description)
        let report = outage.failed(error)
        if report { onError?(error) }
        return (error, report ? error : nil)
    }

    private func discardDamaged(_ name: Data) async {
        state.withLock { $0.stats.damaged += 1 }
        _ = await call { session throws(RedisFailure) in try session.command([Data("DEL".utf8), name]) }
    }
}
