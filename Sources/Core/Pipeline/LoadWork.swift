import Foundation

/// Bytes fetched for a source, from the disk cache or a transport.
struct FetchedBytes: Sendable {
    var data: Data
    var origin: ImageOrigin
    var attempts: Int
    var fetchDuration: Double
    /// The data cache layer that answered, for origin `dataCache`.
    var cacheLayer: String? = nil
    /// The source's `Last-Modified`, from the transport or kept with the data-cache entry.
    var lastModified: String? = nil
}

/// A decoded (and maybe processed) image with how it was obtained.
struct LoadedImage: Sendable {
    var image: DecodedImage
    var origin: ImageOrigin
    var attempts: Int
    var fetchDuration: Double
    var decodeDuration: Double
    var byteCount: Int
    /// The image's share of the pixel budget, given back when the last copy of this value goes (at hand-over).
    var reservation: PixelMemoryBudget.Reservation?
    var cacheLayer: String? = nil
    var sourceLastModified: String? = nil

    func response(for request: ImageRequest, totalDuration: Double) -> ImageResponse {
        ImageResponse(
            image: image, request: request, origin: origin, attempts: attempts,
            metrics: LoadMetrics(
                totalDuration: totalDuration, fetchDuration: fetchDuration, decodeDuration: decodeDuration,
                byteCount: byteCount), cacheLayer: cacheLayer, sourceLastModified: sourceLastModified)
    }
}

/// Requests that share a fetch: same source, same headers, same cache key, same use of the disk cache.
struct FetchWorkKey: Hashable, Sendable {
    var source: String
    var headers: [String: String]
    var cacheKey: String?
    var readsDisk: Bool
    var writesDisk: Bool

    init(_ request: ImageRequest) {
        source = request.sourceString
        headers = request.headers
        cacheKey = request.cacheKey
        readsDisk = request.cachePolicy.contains(.readDisk)
        writesDisk = request.cachePolicy.contains(.writeDisk)
    }
}

/// Requests that share a decode: the same fetch, decoded the same way.
struct DecodeWorkKey: Hashable, Sendable {
    var fetch: FetchWorkKey
    var options: DecodeOptions
    var appliesOrientation: Bool
    var scale: Double

    init(_ request: ImageRequest) {
        fetch = FetchWorkKey(request)
        options = request.effectiveDecodeOptions
        appliesOrientation = request.appliesOrientation
        scale = request.scale
    }
}

/// Identical requests: they share everything, processing included.
struct ImageWorkKey: Hashable, Sendable {
    var decode: DecodeWorkKey
    var imageKey: CacheKey
    var cachePolicy: Int

    init(_ request: ImageRequest) {
        decode = DecodeWorkKey(request)
        imageKey = request.imageCacheKey
        cachePolicy = request.cachePolicy.rawValue
    }
}

extension ImageRequest {
    /// The decode options used: the request's, plus the target size its processors ask for when the request gives
    /// none, so JPEG and WebP can decode at a reduced scale (see `SizeAwareProcessor`). Processors see the image
    /// after the orientation stage, so the target is upright, except when the request does not apply the
    /// orientation: then nothing turns the pixels and the target is in the stored space.
    var effectiveDecodeOptions: DecodeOptions {
        var options = decodeOptions
        if options.targetSize == nil, let target = DecodeSizeNeed.target(of: processors) {
            options.targetSize = target
            options.contentMode = .fill
        }
        if !appliesOrientation { options.targetIsUpright = false }
        return options
    }
}
