/// Stage 1 and last: the memory cache of finished images, read before any work and written after it.
struct MemoryCacheStage: Sendable {
    let cache: (any ImageCache)?
    let counters: LoaderCounters

    /// The finished image the cache holds for `request`, when the request may read it.
    func lookup(_ request: ImageRequest, sink: LoadEventSink?) -> DecodedImage? {
        guard request.cachePolicy.contains(.readMemory), let cache else { return nil }
        guard let image = cache.image(for: request.imageCacheKey) else {
            sink(.memoryCacheMiss)
            return nil
        }
        counters.memoryHits.increment()
        sink(.memoryCacheHit)
        return image
    }

    /// Keeps `image` for `request`, when the request may write the cache.
    func store(_ image: DecodedImage, for request: ImageRequest, sink: LoadEventSink?) {
        guard request.cachePolicy.contains(.writeMemory), let cache else { return }
        cache.store(image, for: request.imageCacheKey)
        sink(.cacheWritten(.memory))
    }
}
