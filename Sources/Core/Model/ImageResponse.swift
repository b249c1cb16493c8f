import Foundation

/// Where a response's image came from. Its raw value (and `Codable` form) is the case's name; `"disk"`, what
/// 0.1.0 stored for `dataCache`, still reads as `dataCache`.
public enum ImageOrigin: String, Sendable, Hashable, Codable {
    /// The memory cache of decoded images (no decoding was done).
    case memory
    /// The data cache of encoded bytes (a disk folder, Redis, a tier of them, or a user's: `ImageResponse.cacheLayer`
    /// names the layer that answered).
    case dataCache
    /// A transport: the network, a file or a `data:` URI.
    case network
    /// An interceptor answered without the loader's stages (a placeholder, a fixture, an offline store).
    case interceptor

    /// The origin named `rawValue`; 0.1.0's `"disk"` is `dataCache`, so values it stored still decode.
    public init?(rawValue: String) {
        switch rawValue {
        case "memory": self = .memory
        case "dataCache", "disk": self = .dataCache
        case "network": self = .network
        case "interceptor": self = .interceptor
        default: return nil
        }
    }
}

/// What a load took.
public struct LoadMetrics: Sendable, Hashable {
    /// From the request to the image handed over, in seconds.
    public var totalDuration: Double
    /// Spent fetching bytes (transport or disk cache), in seconds.
    public var fetchDuration: Double
    /// Spent decoding and processing, in seconds.
    public var decodeDuration: Double
    /// Encoded bytes fetched (0 for memory hits).
    public var byteCount: Int

    /// Creates metrics.
    public init(totalDuration: Double = 0, fetchDuration: Double = 0, decodeDuration: Double = 0, byteCount: Int = 0) {
        self.totalDuration = totalDuration
        self.fetchDuration = fetchDuration
        self.decodeDuration = decodeDuration
        self.byteCount = byteCount
    }
}

/// A finished load: the image and how it was obtained.
public struct ImageResponse: Sendable {
    /// The image, processed as the request asked.
    public var image: DecodedImage
    /// The request it answers.
    public var request: ImageRequest
    /// Where the image came from.
    public var origin: ImageOrigin
    /// How many transport attempts it took (0 when served from a cache).
    public var attempts: Int
    /// Timing and size.
    public var metrics: LoadMetrics
    /// For origin `dataCache`, the layer that answered: `disk`, `redis`, or a user's cache by its name.
    public var cacheLayer: String?
    /// The source's `Last-Modified` (an HTTP date), when its transport gave one (HTTP, files) or the data-cache
    /// entry kept it, for a service that passes it on.
    public var sourceLastModified: String?
    /// Whether this is a preview of an image still arriving (see `ImageLoader.responses(for:previews:)`): drawn
    /// from the bytes so far, processed as the final image will be, never cached.
    public var isPreview = false

    /// Creates a response.
    public init(
        image: DecodedImage, request: ImageRequest, origin: ImageOrigin, attempts: Int,
        metrics: LoadMetrics = LoadMetrics(), cacheLayer: String? = nil, sourceLastModified: String? = nil
    ) {
        self.sourceLastModified = sourceLastModified
        self.image = image
        self.request = request
        self.origin = origin
        self.attempts = attempts
        self.metrics = metrics
        self.cacheLayer = cacheLayer
    }
}
