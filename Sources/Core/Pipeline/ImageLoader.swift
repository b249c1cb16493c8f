import Foundation
import Synchronization

/// Loads images through the plugins of a registry: memory cache → interceptors → data cache → transport →
/// decoder → orientation → processors → caches (the flow, top to bottom, is in `ImageLoader+Pipeline.swift`).
///
/// Identical requests in flight share one fetch and one decode; requests for the same source with different
/// processing share the fetch. A caller that cancels gets `cancelled` at once, and the shared work stops when
/// its last caller is gone. Transport failures are retried by `settings.retry`; fetches and decodes are bounded
/// by `settings` and started in priority order. Decoding and processing run on `WorkExecutor.compute`, never on
/// the cooperative pool, and a decode starts only when its pixels fit in `pixelBudget`.
public final class ImageLoader: Sendable {
    /// The plugins used: an immutable value, so what a loader uses is fixed when it is made.
    public let registry: PluginRegistry
    /// Scheduling, limits and retries.
    public let settings: LoaderSettings
    /// The listeners told about every load.
    public let eventListeners: [any ImageLoadEventListener]
    /// What may be fetched and connected to, for every transport (`nil`: anything): checked on the source before
    /// the data cache or the transport is asked, and handed to the transport for every redirect and connection.
    public let sourcePolicy: (any SourceAccessPolicy)?

    let memoryStage: MemoryCacheStage
    let dataStage: DataCacheStage
    let fetchStage: FetchStage
    let decodeStage: DecodeStage
    let processStage: ProcessStage
    let imageTasks = TaskCoalescer<ImageWorkKey, LoadedImage>()
    let decodeTasks = TaskCoalescer<DecodeWorkKey, DecodedResult>()
    let fetchTasks = TaskCoalescer<FetchWorkKey, FetchedBytes>()
    let counters = LoaderCounters()
    /// Bytes of decoded pixels between the start of a decode and the hand-over of its image
    /// (`settings.pixelMemoryBudget`).
    public let pixelBudget: PixelMemoryBudget
    /// Load numbers, unique in the process across loaders.
    private static let loadIDs = Atomic<UInt64>(0)
    /// The queue of fetches (for tests and diagnostics).
    var loadLimiter: WorkLimiter { fetchStage.limiter }
    /// The queue of decodes and processing (for tests and diagnostics).
    var decodeLimiter: WorkLimiter { decodeStage.limiter }
    /// Progressive previews: chunk taps on fetches, and the callers waiting for previews.
    let chunkTaps = ChunkTaps()
    let previewHub = PreviewHub()
    /// Data-cache writes running beside the decode (`waitForPendingWrites()`).
    let pendingWrites = PendingCacheWrites()
    /// Recent detectors' answers (`detect(_:in:)`).
    let detections = DetectionMemory()

    /// What the loader has done so far: cache hits, transport attempts, decodes.
    public var statistics: LoaderStatistics { counters.snapshot }

    /// Creates a loader of `registry`'s plugins, telling `eventListeners` about every load;
    /// `sourcePolicy` decides what every transport may fetch and connect to.
    public convenience init(
        registry: PluginRegistry, settings: LoaderSettings = .init(),
        eventListeners: [any ImageLoadEventListener] = [], sourcePolicy: (any SourceAccessPolicy)? = nil
    ) {
        self.init(
            registry: registry, settings: settings, eventListeners: eventListeners, sourcePolicy: sourcePolicy,
            sleep: ImageLoader.taskSleep)
    }

    /// Creates a loader that waits between retries with `sleep` (seconds), so tests need not wait.
    public init(
        registry: PluginRegistry, settings: LoaderSettings = .init(),
        eventListeners: [any ImageLoadEventListener] = [], sourcePolicy: (any SourceAccessPolicy)? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void
    ) {
        // The registry as it is now: a change through its deprecated mutators after this does not reach the loader.
        let registry = registry.snapshot
        self.registry = registry
        self.sourcePolicy = sourcePolicy
        self.settings = settings
        self.eventListeners = eventListeners
        let decodeLimiter = WorkLimiter(limit: settings.maxConcurrentDecodes)
        let pixelBudget = PixelMemoryBudget(capacity: settings.effectivePixelMemoryBudget)
        self.pixelBudget = pixelBudget
        memoryStage = MemoryCacheStage(cache: registry.imageCache, counters: counters)
        dataStage = DataCacheStage(cache: registry.dataCache, name: registry.dataCacheName, counters: counters)
        fetchStage = FetchStage(
            limiter: WorkLimiter(limit: settings.maxConcurrentLoads, perGroupLimit: settings.maxConcurrentLoadsPerHost),
            retry: settings.retry, maxBytes: settings.limits.maxBytes, timeout: settings.fetchTimeout,
            counters: counters, sleep: sleep)
        decodeStage = DecodeStage(
            decoders: registry, limits: settings.limits, limiter: decodeLimiter, budget: pixelBudget, counters: counters
        )
        processStage = ProcessStage(limiter: decodeLimiter)
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
        try await image(for: request, priority: PriorityBox(request.priority), listener: nil, progress: nil)
    }

    /// Loads the image `request` asks for, reporting bytes received as they arrive.
    public func image(
        for request: ImageRequest, progress: (@Sendable (FetchProgress) -> Void)?
    ) async throws -> ImageResponse {
        try await image(for: request, priority: PriorityBox(request.priority), listener: nil, progress: progress)
    }

    /// Loads the image `request` asks for, telling `listener` (besides the loader's own listeners) about it.
    public func image(
        for request: ImageRequest, listener: any ImageLoadEventListener
    ) async throws -> ImageResponse {
        try await image(for: request, priority: PriorityBox(request.priority), listener: listener, progress: nil)
    }

    /// Loads with a priority the caller may change while the load waits in a queue.
    func image(
        for request: ImageRequest, priority: PriorityBox, listener: (any ImageLoadEventListener)?,
        progress: (@Sendable (FetchProgress) -> Void)?
    ) async throws -> ImageResponse {
        let listeners = listener.map { eventListeners + [$0] } ?? eventListeners
        let sink = LoadEventSink.load(Self.nextLoadID(), request, listeners: listeners, progress: progress)
        return try await load(request, priority: priority, sink: sink)
    }

    /// A load number no other load of this process has had.
    static func nextLoadID() -> UInt64 { loadIDs.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The processors of the processing preset `name` (named in the configuration's `processing`, or registered
    /// with `PluginRegistry.Builder.add(preset:_:)`), for a request's `processors`. An unknown name throws
    /// `invalidConfiguration` listing the known ones.
    public func processors(named name: String) throws -> [any ImageProcessor] {
        try registry.processors(named: name)
    }

    /// Starts loading in a handle that can be cancelled and reports progress.
    public func task(for request: ImageRequest) -> ImageTask {
        ImageTask(request: request, loader: self)
    }

    // MARK: Caches

    /// The memory cache of decoded images, if the registry has one.
    public var imageCache: (any ImageCache)? { registry.imageCache }
    /// The data cache of encoded bytes, if the registry has one.
    public var dataCache: (any DataCache)? { registry.dataCache }

    /// The image the memory cache holds for `request`, if any.
    public func cachedImage(for request: ImageRequest) -> DecodedImage? {
        registry.imageCache?.image(for: request.imageCacheKey)
    }

    /// Returns when every data-cache write the loader started has ended (stored or failed, its event sent).
    ///
    /// A fetch hands its bytes on without waiting for its own cache write, so a load may finish, and a second load
    /// of the same source may miss the data cache, while the write is in flight. Call this before exiting or
    /// before reading the cache in a test.
    public func waitForPendingWrites() async {
        await pendingWrites.waitUntilIdle()
    }

    /// Empties the memory cache and the disk cache.
    public func removeAllCaches() async {
        registry.imageCache?.removeAll()
        await registry.dataCache?.removeAll()
    }

    /// The response the memory cache can give at once, synchronously (origin `memory`), or `nil`; respects the
    /// request's cache policy.
    public func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        let start = ContinuousClock.now
        guard let image = memoryStage.lookup(request, sink: nil) else { return nil }
        return ImageResponse(
            image: image, request: request, origin: .memory, attempts: 0,
            metrics: LoadMetrics(totalDuration: start.duration(to: .now).seconds))
    }
}

extension Duration {
    /// The duration in seconds (for the package's modules: timings, clocks, metrics).
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}
