import Foundation
import ImagoCore
import Synchronization

/// Deliberately broken caches, each breaking one promise.
enum BrokenCaches {
    /// Keeps only the last image stored, whatever its limits say.
    final class Forgetful: ImageCache {
        private let last = Mutex<(CacheKey, DecodedImage)?>(nil)
        func image(for key: CacheKey) -> DecodedImage? { last.withLock { $0?.0 == key ? $0?.1 : nil } }
        func store(_ image: DecodedImage, for key: CacheKey) { last.withLock { $0 = (key, image) } }
        func removeImage(for key: CacheKey) { last.withLock { if $0?.0 == key { $0 = nil } } }
        func removeAll() { last.withLock { $0 = nil } }
    }

    /// Evicts the oldest entry, though reads should protect it (documented as LRU).
    final class FirstInFirstOut: ImageCache {
        let countLimit: Int
        private let state = Mutex<[(CacheKey, DecodedImage)]>([])
        init(countLimit: Int) { self.countLimit = countLimit }
        func image(for key: CacheKey) -> DecodedImage? { state.withLock { $0.first { $0.0 == key }?.1 } }
        func store(_ image: DecodedImage, for key: CacheKey) {
            state.withLock { entries in
                entries.removeAll { $0.0 == key }
                entries.append((key, image))
                if entries.count > countLimit { entries.removeFirst(entries.count - countLimit) }
            }
        }
        func removeImage(for key: CacheKey) { state.withLock { $0.removeAll { $0.0 == key } } }
        func removeAll() { state.withLock { $0.removeAll() } }
    }

    /// Serves whatever it holds, damaged or not: no checksum.
    final class ServesDamage: DataCache {
        private let entries = Mutex<[CacheKey: DataCacheEntry]>([:])
        func entry(for key: CacheKey) async -> DataCacheEntry? { entries.withLock { $0[key] } }
        func store(_ entry: DataCacheEntry, for key: CacheKey) async throws { entries.withLock { $0[key] = entry } }
        func removeEntry(for key: CacheKey) async { _ = entries.withLock { $0.removeValue(forKey: key) } }
        func removeAll() async { entries.withLock { $0.removeAll() } }
        func damageEntry(for key: CacheKey) { entries.withLock { $0[key]?.data[0] ^= 0xFF } }
    }
}

/// Deliberately broken processors, each breaking one promise.
enum BrokenProcessors {
    /// Leaves its parameter out of its identifier.
    struct IdentifierIgnoresParameters: ImageProcessor {
        let intensity: Double
        var identifier: String { "grayscale" }
        func process(_ image: DecodedImage) throws -> DecodedImage {
            try GrayscaleProcessor(intensity: intensity).process(image)
        }
    }

    /// Adds a different speck of noise each time.
    struct Nondeterministic: ImageProcessor {
        let seed: Int
        var identifier: String { "noise(\(seed))" }
        func process(_ image: DecodedImage) throws -> DecodedImage {
            var output = image
            output.frames = try image.frames.map { frame in
                var pixels = frame.raster.pixels
                pixels[Int.random(in: 0..<pixels.count)] &+= UInt8.random(in: 1...255)
                let raster = try Raster(width: frame.raster.width, height: frame.raster.height, pixels: pixels)
                return ImageFrame(raster: raster, duration: frame.duration)
            }
            return output
        }
    }

    /// Keeps only the first frame of an animation.
    struct DropsFrames: ImageProcessor {
        let intensity: Double
        var identifier: String { "first-frame-grayscale(\(intensity))" }
        func process(_ image: DecodedImage) throws -> DecodedImage {
            var output = try GrayscaleProcessor(intensity: intensity).process(image)
            output.frames = [output.frames[0]]
            return output
        }
    }
}
