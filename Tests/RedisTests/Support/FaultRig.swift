import Foundation
import Imago
import ImagoTestSupport
import Synchronization
import Testing

/// A loader whose only cache is a Redis data cache, an origin of noise images, and the failures the cache
/// reported: what the fault tests drive.
final class FaultRig: Sendable {
    static let names = ["a.png", "b.png", "c.png"]
    let origin: CountingOrigin
    let rasters: [String: Raster]
    let errors = ErrorLog()
    let cache: RedisDataCache
    private let registry: PluginRegistry

    /// `retryInterval` is long enough that the rounds of loads between two checks fit in one stand-aside even on a
    /// starved machine (at 0.5 s a busy CI run saw a second report of one outage).
    init(url: String, timeout: Double = 0.75, retryInterval: Double = 3) throws {
        var files: [String: Data] = [:]
        var rasters: [String: Raster] = [:]
        for (index, name) in Self.names.enumerated() {
            let (data, raster) = try NoiseImage.png(seed: UInt64(index + 1))
            files[name] = data
            rasters[name] = raster
        }
        origin = try CountingOrigin(files: files)
        self.rasters = rasters
        let errors = self.errors
        cache = try RedisFixtures.cache(
            url: url, timeout: timeout, retryInterval: retryInterval,
            onError: { error in errors.append(error) })
        let factories = PluginRegistry.standardFactories()
        var configuration = factories.standardConfiguration()
        configuration.imageCache = nil
        configuration.dataCache = nil
        var builder = PluginRegistry.Builder(try factories.configured(by: configuration))
        builder.dataCache = TimedDataCache(cache, log: waits)
        registry = builder.build()
    }

    /// The longest the loader waited for one cache call, in seconds.
    var longestWait: Double { waits.longest }
    private let waits = WaitLog()

    /// Loads `name` with a fresh loader (no memory cache), checks its pixels are exactly the origin's, and returns
    /// the response and how long the load took.
    @discardableResult
    func load(_ name: String) async throws -> (response: ImageResponse, seconds: Double) {
        let events = failureEvents
        let loader = ImageLoader(
            registry: registry,
            eventListeners: [
                ImageLoadEventClosure { event in
                    switch event.kind {
                    case .dataCacheReadFailed(let error), .cacheWriteFailed(.data, let error): events.append(error)
                    default: break
                    }
                }
            ])
        let start = ContinuousClock.now
        let response = try await loader.image(for: ImageRequest(url: origin.url(name)))
        // The write runs beside the decode: its events and the next load's disk hit come after it.
        await loader.waitForPendingWrites()
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(response.image.raster == rasters[name], "\(name) has other pixels")
        return (response, seconds)
    }

    /// Loads every image, expecting each to come from `origin` (and, for the data cache, from Redis), with no
    /// wait for the cache longer than `maxWait` seconds.
    ///
    /// Where Redis is down, killed or refuses the login it answers at once, so the wall clock measures how long
    /// the waiting task took to be scheduled again: 3.7 and 3.9 s were seen on CI for a 0.75 s timeout, with other
    /// suites holding both threads of the cooperative pool. The limit catches a wait that retries or sleeps; the
    /// timeout's own bound is proven against a stopped Redis (`slowRedisCostsAtMostTheTimeout`), where a load that
    /// it did not bound would never finish.
    func loadAll(expecting origin: ImageOrigin, maxWait: Double = 10) async throws {
        for name in Self.names {
            let (response, _) = try await load(name)
            #expect(response.origin == origin, "\(name) came from \(response.origin)")
            if origin == .dataCache { #expect(response.cacheLayer == "redis") }
        }
        #expect(longestWait < maxWait, "a cache call took \(longestWait) s")
    }

    var reported: [ImagoError] { errors.all }

    /// The cache failures the loaders' events carried (`dataCacheReadFailed`, `cacheWriteFailed`).
    let failureEvents = ErrorLog()
    var events: [ImagoError] { failureEvents.all }

    /// Waits out the cache's stand-aside interval.
    func waitRetryInterval() async throws {
        try await Task.sleep(for: .seconds(cache.configuration.retryInterval + 0.15))
    }
}

/// The errors a cache reported, in order.
final class ErrorLog: Sendable {
    private let errors = Mutex<[ImagoError]>([])

    func append(_ error: ImagoError) { errors.withLock { $0.append(error) } }

    var all: [ImagoError] { errors.withLock { $0 } }
}

/// The longest wait seen.
final class WaitLog: Sendable {
    private let longestSeconds = Mutex(0.0)

    func record(since start: ContinuousClock.Instant) {
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        longestSeconds.withLock { $0 = max($0, seconds) }
    }

    var longest: Double { longestSeconds.withLock { $0 } }
}

/// A data cache that times each call of the one it wraps.
struct TimedDataCache: DataCache {
    let cache: any DataCache
    let log: WaitLog

    init(_ cache: any DataCache, log: WaitLog) {
        self.cache = cache
        self.log = log
    }

    func entry(for key: CacheKey) async -> DataCacheEntry? {
        await entry(for: key, reporting: .ignoring)
    }

    func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        let start = ContinuousClock.now
        defer { log.record(since: start) }
        return await cache.entry(for: key, reporting: failures)
    }

    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        let start = ContinuousClock.now
        defer { log.record(since: start) }
        try await cache.store(entry, for: key)
    }

    func removeEntry(for key: CacheKey) async { await cache.removeEntry(for: key) }

    func removeAll() async { await cache.removeAll() }
}
