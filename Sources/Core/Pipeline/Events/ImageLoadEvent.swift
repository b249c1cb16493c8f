/// One thing that happened while a load ran, for logging, metrics and tests.
///
/// Events arrive in order for each load: `started`, then the caches and stages it went through, then exactly
/// one of `finished`, `failed` or `cancelled`. Work shared by identical requests in flight (a fetch, a decode) is
/// reported to every load that waits for it, each under its own `loadID` and `request`.
///
/// One exception to the order: the data-cache write (`cacheWritten(.data)` or `cacheWriteFailed(.data, _)`) runs
/// beside the decode, so its event comes after the fetch's events but anywhere from there on, and may come after
/// `finished`. It goes to every load that waited for that fetch; `ImageLoader.waitForPendingWrites()` returns once
/// it has been sent.
///
/// Every `fetchStarted` a load sees is followed by one `fetchEnded` for that attempt before the load's last event,
/// even when the load is cancelled while the attempt runs (then the attempt's `error` is `cancelled`).
public struct ImageLoadEvent: Sendable {
    /// Which load: one number per call to `ImageLoader.image(for:)` (or any other load call), unique in the process
    /// across loaders, so concurrent loads of one request can be told apart.
    public var loadID: UInt64
    /// The request loaded.
    public var request: ImageRequest
    /// When it happened.
    public var time: ContinuousClock.Instant
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(loadID: UInt64, request: ImageRequest, time: ContinuousClock.Instant = .now, kind: Kind) {
        self.loadID = loadID
        self.request = request
        self.time = time
        self.kind = kind
    }

    /// What happened.
    public enum Kind: Sendable {
        /// The load began.
        case started
        /// The memory cache had the finished image.
        case memoryCacheHit
        /// The memory cache was asked and had nothing.
        case memoryCacheMiss
        /// The data cache had fresh bytes, used without asking the origin; `layer` names the cache or tier that
        /// answered (`disk`, `redis`, or a user's cache by its factory or type name).
        case dataCacheHit(byteCount: Int, layer: String)
        /// The data cache had nothing usable; `stale` when it had an entry that must be revalidated first.
        case dataCacheMiss(stale: Bool)
        /// The origin answered a revalidation `304 Not Modified`: the cached bytes are used again.
        case dataCacheRevalidated(byteCount: Int)
        /// The data cache failed to read (it reported the failure); the load goes on as after a miss.
        case dataCacheReadFailed(ImagoError)
        /// Transport attempt `attempt` (counting from 1) began, after waiting `queued` seconds for a slot.
        case fetchStarted(attempt: Int, queued: Double)
        /// A transport attempt ended, with its outcome and the wait before the next one, if any.
        case fetchEnded(FetchAttempt)
        /// Bytes of the body arrived.
        case bytesReceived(FetchProgress)
        /// The bytes were decoded (orientation included).
        case decoded(DecodeReport)
        /// The request's processors ran.
        case processed(StageTiming)
        /// A cache stored the result.
        case cacheWritten(CacheLayer)
        /// A cache failed to store the result; the load goes on.
        case cacheWriteFailed(CacheLayer, ImagoError)
        /// The load ended with an image.
        case finished(ImageResponse)
        /// The load failed (not by cancellation).
        case failed(ImagoError)
        /// The load was cancelled.
        case cancelled
    }
}

/// The caches a load writes.
public enum CacheLayer: String, Sendable, Hashable {
    /// The memory cache of decoded images.
    case memory
    /// The data cache of encoded bytes (on disk, or any `DataCache`).
    case data
}

/// How long a stage waited for a slot and then ran, in seconds.
public struct StageTiming: Sendable, Hashable {
    /// Time spent waiting for a slot (the loader bounds concurrent decodes and processing).
    public var queued: Double
    /// Time spent doing the work, the wait excluded.
    public var duration: Double

    /// Creates a timing.
    public init(queued: Double, duration: Double) {
        self.queued = queued
        self.duration = duration
    }
}

/// One transport attempt and how it ended.
public struct FetchAttempt: Sendable {
    /// The attempt's number, counting from 1.
    public var attempt: Int
    /// From the attempt's start (slot acquired) to its end, in seconds.
    public var duration: Double
    /// The HTTP status, when the transport has statuses and one arrived.
    public var statusCode: Int?
    /// Body bytes received.
    public var byteCount: Int
    /// Why it failed; `nil` for a success.
    public var error: ImagoError?
    /// Seconds the loader waits before the next attempt; `nil` when none follows.
    public var retryDelay: Double?

    /// Creates an attempt.
    public init(
        attempt: Int, duration: Double, statusCode: Int? = nil, byteCount: Int = 0, error: ImagoError? = nil,
        retryDelay: Double? = nil
    ) {
        self.attempt = attempt
        self.duration = duration
        self.statusCode = statusCode
        self.byteCount = byteCount
        self.error = error
        self.retryDelay = retryDelay
    }

    /// Whether the attempt brought an answer.
    public var succeeded: Bool { error == nil }
    /// Whether the attempt ended because its load was cancelled.
    public var wasCancelled: Bool { error?.kind == .cancelled }
}

/// A decode: what came out and how long it took.
public struct DecodeReport: Sendable, Hashable {
    /// The format decoded.
    public var format: ImageFormat
    /// The decoded size, in pixels (after orientation).
    public var size: PixelSize
    /// Time waiting for a decode slot, and decoding.
    public var timing: StageTiming

    /// Creates a report.
    public init(format: ImageFormat, size: PixelSize, timing: StageTiming) {
        self.format = format
        self.size = size
        self.timing = timing
    }
}
