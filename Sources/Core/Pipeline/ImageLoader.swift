import Foundation

/// Loads images through the plugins of a registry: memory cache → disk cache → transport → decoder →
/// orientation → processors → caches.
///
/// Identical requests in flight share one fetch and one decode; requests for the same source with different
/// processing share the fetch. A caller that cancels gets `cancelled` at once, and the shared work stops when
/// its last caller is gone. Transport failures are retried by `settings.retry`; fetches and decodes are bounded
/// by `settings` and started in priority order. Decoding and processing run on `WorkExecutor.compute`, never on
/// the cooperative pool, and a decode starts only when its pixels fit in `pixelBudget`.
public final class ImageLoader: Sendable {
    /// The plugins used.
    public let registry: PluginRegistry
    /// Scheduling, limits and retries.
    public let settings: LoaderSettings

    let sleep: @Sendable (Double) async throws -> Void
    let loadLimiter: WorkLimiter
    let decodeLimiter: WorkLimiter
    let imageTasks = TaskCoalescer<ImageWorkKey, LoadedImage>()
    let decodeTasks = TaskCoalescer<DecodeWorkKey, LoadedImage>()
    let fetchTasks = TaskCoalescer<FetchWorkKey, FetchedBytes>()
    let counters = LoaderCounters()
    /// Bytes of decoded pixels between the start of a decode and the hand-over of its image
    /// (`settings.pixelMemoryBudget`).
    public let pixelBudget: PixelMemoryBudget

    /// What the loader has done so far: cache hits, transport attempts, decodes.
    public var statistics: LoaderStatistics { counters.snapshot }

    /// Creates a loader of `registry`'s plugins.
    public convenience init(registry: PluginRegistry, settings: LoaderSettings = .init()) {
        self.init(registry: registry, settings: settings, sleep: ImageLoader.taskSleep)
    }

    /// Creates a loader that waits between retries with `sleep` (seconds), so tests need not wait.
    public init(
        registry: PluginRegistry, settings: LoaderSettings = .init(),
        sleep: @escaping @Sendable (Double) async throws -> Void
    ) {
        self.registry = registry
        self.settings = settings
        self.sleep = sleep
        self.loadLimiter = WorkLimiter(
            limit: settings.maxConcurrentLoads, perGroupLimit: settings.maxConcurrentLoadsPerHost)
        self.decodeLimiter = WorkLimiter(limit: settings.maxConcurrentDecodes)
        self.pixelBudget = PixelMemoryBudget(capacity: settings.effectivePixelMemoryBudget)
    }

    /// Waits `seconds` with `Task.sleep`; throws when cancelled.
    @Sendable public static func taskSleep(_ seconds: Double) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }

    // MARK: Loading

    /// Loads the image `request` asks for. Throws `ImagoError` (`cancelled` when the calling task is cancelled).
    ///
    /// A memory-cache hit costs about a microsecond; called from an actor (the main actor), the call also pays
    /// the executor hop of any nonisolated async function: use `cachedResponse(for:)` there to avoid it.
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        try await image(for: request, progress: nil)
    }

    /// Loads the image `request` asks for, reporting bytes received as they arrive.
    public func image(
        for request: ImageRequest, progress: (@Sendable (FetchProgress) -> Void)?
    ) async throws -> ImageResponse {
        try await image(for: request, priority: PriorityBox(request.priority), progress: progress)
    }

    /// Loads with a priority the caller may change while the load waits in a queue.
    func image(
        for request: ImageRequest, priority: PriorityBox, progress: (@Sendable (FetchProgress) -> Void)?
    ) async throws -> ImageResponse {
        let start = ContinuousClock.now
        if let hit = cachedResponse(for: request, since: start) { return hit }
        do {
            try Task.checkCancellation()
            let loaded = try await imageTasks.value(
                for: ImageWorkKey(request), priority: priority, progress: progress
            ) { work in
                try await self.loadImage(request, work: work)
            }
            // The disk-cache write ran beside the decode; once the caller has its image, the entry is there.
            await loaded.pendingStore?.value
            // Handed over: the budget is given back when `loaded` goes, unless the caller holds it longer.
            PixelMemoryBudget.keepIfHolding(loaded.reservation)
            return loaded.response(for: request, totalDuration: start.duration(to: .now).seconds)
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString)
        }
    }

    /// Starts loading in a handle that can be cancelled and reports progress.
    public func task(for request: ImageRequest) -> ImageTask {
        ImageTask(request: request, loader: self)
    }

    // MARK: Caches

    /// The memory cache of decoded images, if the registry has one.
    public var imageCache: (any ImageCache)? { registry.imageCache }
    /// The disk cache of encoded bytes, if the registry has one.
    public var dataCache: (any DataCache)? { registry.dataCache }

    /// The image the memory cache holds for `request`, if any.
    public func cachedImage(for request: ImageRequest) -> DecodedImage? {
        registry.imageCache?.image(for: request.imageCacheKey)
    }

    /// Empties the memory cache and the disk cache.
    public func removeAllCaches() async {
        registry.imageCache?.removeAll()
        await registry.dataCache?.removeAll()
    }

    /// The response the memory cache can give at once, synchronously (origin `memory`), or `nil`; respects the
    /// request's cache policy.
    public func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        cachedResponse(for: request, since: .now)
    }

    /// Serves a memory-cache hit without any task hop.
    private func cachedResponse(for request: ImageRequest, since start: ContinuousClock.Instant) -> ImageResponse? {
        guard request.cachePolicy.contains(.readMemory), let image = cachedImage(for: request) else { return nil }
        counters.memoryHits.increment()
        return ImageResponse(
            image: image, request: request, origin: .memory, attempts: 0,
            metrics: LoadMetrics(totalDuration: start.duration(to: .now).seconds))
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
