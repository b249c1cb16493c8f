import Foundation
import ImagoCore
import Synchronization

/// Decodes "FAKE" bytes: `FAKE`, width, height, EXIF orientation, then an RGBA colour; counts its decodes.
public final class FakeDecoder: ImageDecoder {
    public let format = ImageFormat("fake")
    private let counter = Mutex((decodes: 0, options: [DecodeOptions]()))

    public init() {}

    public var decodeCount: Int { counter.withLock { $0.decodes } }
    public var options: [DecodeOptions] { counter.withLock { $0.options } }

    public func canDecode(_ header: Data) -> Bool { header.starts(with: Array("FAKE".utf8)) }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        counter.withLock {
            $0.decodes += 1
            $0.options.append(options)
        }
        let bytes = [UInt8](data)
        guard bytes.count >= 11 else { throw ImagoError(.decodingFailed(format: format), "fake image truncated") }
        let width = Int(bytes[4])
        let height = Int(bytes[5])
        try options.limits.check(width: width, height: height, format: format)
        let raster = try Raster(width: width, height: height, fill: RGBA(bytes[7], bytes[8], bytes[9], bytes[10]))
        var image = DecodedImage(raster: raster, format: format, encodedSize: data.count)
        image.orientation = ImageOrientation(exifValue: Int(bytes[6]))
        return image
    }

    /// Bytes this decoder turns into a `width` × `height` image of one colour.
    public static func encode(
        width: Int = 4, height: Int = 3, orientation: Int = 1, color: RGBA = RGBA(200, 100, 50), padding: Int = 0
    ) -> Data {
        Data("FAKE".utf8) + Data([UInt8(width), UInt8(height), UInt8(orientation), color.r, color.g, color.b, color.a])
            + Data(repeating: 0, count: padding)
    }
}

/// A memory cache over a dictionary, counting reads and writes.
public final class FakeImageCache: ImageCache {
    private let state = Mutex((images: [CacheKey: DecodedImage](), stores: 0))

    public init() {}

    public var storeCount: Int { state.withLock { $0.stores } }
    public var keys: Set<CacheKey> { state.withLock { Set($0.images.keys) } }

    public func image(for key: CacheKey) -> DecodedImage? { state.withLock { $0.images[key] } }
    public func store(_ image: DecodedImage, for key: CacheKey) {
        state.withLock {
            $0.images[key] = image
            $0.stores += 1
        }
    }
    public func removeImage(for key: CacheKey) { _ = state.withLock { $0.images.removeValue(forKey: key) } }
    public func removeAll() { state.withLock { $0.images = [:] } }
}

/// A disk cache over a dictionary, counting writes.
public final class FakeDataCache: DataCache {
    private let state = Mutex((entries: [CacheKey: DataCacheEntry](), stores: 0))

    public init() {}

    public var storeCount: Int { state.withLock { $0.stores } }
    public func peek(_ key: CacheKey) -> DataCacheEntry? { state.withLock { $0.entries[key] } }
    public var keys: Set<CacheKey> { state.withLock { Set($0.entries.keys) } }
    public func put(_ entry: DataCacheEntry, for key: CacheKey) { state.withLock { $0.entries[key] = entry } }

    public func entry(for key: CacheKey) async -> DataCacheEntry? { peek(key) }
    public func store(_ entry: DataCacheEntry, for key: CacheKey) async throws {
        state.withLock {
            $0.entries[key] = entry
            $0.stores += 1
        }
    }
    public func removeEntry(for key: CacheKey) async { _ = state.withLock { $0.entries.removeValue(forKey: key) } }
    public func removeAll() async { state.withLock { $0.entries = [:] } }
}

/// Records the processors that ran, so tests can count processing.
public struct CountingProcessor: ImageProcessor {
    public let name: String
    public let counter: Counter

    public init(name: String, counter: Counter) {
        self.name = name
        self.counter = counter
    }

    public var identifier: String { "count(\(name))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        counter.increment()
        return image
    }
}

/// A shareable counter.
public final class Counter: Sendable {
    private let value = Mutex<Int>(0)
    public init() {}
    public func increment() { value.withLock { $0 += 1 } }
    public var count: Int { value.withLock { $0 } }
}

/// Records the delays a loader asked to sleep, without sleeping.
public final class SleepRecorder: Sendable {
    private let delays = Mutex<[Double]>([])

    public var recorded: [Double] { delays.withLock { $0 } }
    public var sleep: @Sendable (Double) async throws -> Void {
        { [self] seconds in
            delays.withLock { $0.append(seconds) }
            try Task.checkCancellation()
        }
    }
}

/// A loader over fake plugins.
public struct FakeEnvironment: Sendable {
    public let transport = FakeTransport()
    public let decoder = FakeDecoder()
    public let imageCache = FakeImageCache()
    public let dataCache = FakeDataCache()
    public let sleeps = SleepRecorder()
    public let registry: PluginRegistry
    public let loader: ImageLoader

    public init(
        settings: LoaderSettings = LoaderSettings(), imageCache useImageCache: Bool = true,
        dataCache useDataCache: Bool = true, interceptors: [any ImageInterceptor] = []
    ) {
        var builder = PluginRegistry.Builder()
        builder.add(transport)
        builder.add(decoder)
        if useImageCache { builder.imageCache = imageCache }
        if useDataCache { builder.dataCache = dataCache }
        interceptors.forEach { builder.add($0) }
        registry = builder.build()
        loader = ImageLoader(registry: registry, settings: settings, sleep: sleeps.sleep)
    }

    public func request(_ path: String, priority: ImagePriority = .normal, policy: CachePolicy = .default)
        -> ImageRequest
    {
        ImageRequest(url: URL(string: "fake://host\(path)")!, priority: priority, cachePolicy: policy)
    }
}
