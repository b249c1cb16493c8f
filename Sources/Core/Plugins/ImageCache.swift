/// Keeps decoded images in memory.
///
/// Lookups are synchronous so that a hit costs a hash lookup, not a task hop; implementations must be safe to
/// call from many threads at once.
public protocol ImageCache: Sendable {
    /// The image stored for `key`, if any (and not expired).
    func image(for key: CacheKey) -> DecodedImage?
    /// Stores `image` for `key`, charging its `cost`; an image over the cache's per-entry limit is not kept.
    func store(_ image: DecodedImage, for key: CacheKey)
    /// Removes the image for `key`.
    func removeImage(for key: CacheKey)
    /// Removes every image.
    func removeAll()
}
