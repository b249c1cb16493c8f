import Dispatch
import Foundation
import Imago
import Synchronization

/// The loader's overhead: a batch of local files loaded one after another through the whole loader (file
/// transport, sniffing, decode, no caches) against reading and decoding the same files directly. Goal: < 5%.
/// The files are written once to `$TMPDIR/imago-bench-loader` (reused by later runs).
enum LoaderBatchBenchmark {
    static func make() throws -> BenchmarkCase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-bench-loader")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var urls: [URL] = []
        for index in 0..<8 {
            let raster = try Raster(
                width: 1024, height: 768, pixels: SyntheticImage.pixels(width: 1024, height: 768, grain: 12 + index))
            let jpeg = try JPEGCodec().encode(DecodedImage(raster: raster, format: .jpeg))
            let png = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
            for (name, data) in [("\(index).jpg", jpeg), ("\(index).png", png)] {
                let url = folder.appendingPathComponent(name)
                try data.write(to: url)
                urls.append(url)
            }
        }
        var builder = PluginRegistry.Builder()
        builder.add(FileTransport())
        builder.add(Codec(decoder: PNGCodec()))
        builder.add(Codec(decoder: JPEGCodec()))
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)
        let requests = urls.map { ImageRequest(url: $0, cachePolicy: .none) }
        return BenchmarkCase(
            name: "loader batch 16 files 1024x768",
            imago: {
                try runBlocking {
                    for request in requests { _ = try await loader.image(for: request) }
                }
            },
            baseline: {
                for url in urls {
                    let data = try Data(contentsOf: url)
                    _ = try registry.decoder(for: data)?.decode(data)
                }
            })
    }
}

/// A memory-cache hit through the whole loader (10,000 of them, so the per-hit time in µs is the figure in ms
/// divided by 10) against the bare cache lookup with its key. Goal: a few µs a hit.
enum LoaderMemoryHitBenchmark {
    static let count = 10_000

    static func make() throws -> BenchmarkCase {
        var builder = PluginRegistry.Builder()
        let cache = MemoryImageCache()
        builder.imageCache = cache
        let registry = builder.build()
        let request = ImageRequest(url: URL(string: "https://example.com/images/photo-000123.jpg")!)
        let image = DecodedImage(raster: try Raster(width: 64, height: 64, fill: RGBA(1, 2, 3)), format: .jpeg)
        cache.store(image, for: request.imageCacheKey)
        let loader = ImageLoader(registry: registry)
        return BenchmarkCase(
            name: "loader memory hit x\(count)",
            imago: {
                try runBlocking {
                    for _ in 0..<count { _ = try await loader.image(for: request) }
                }
            },
            baseline: {
                for _ in 0..<count { _ = cache.image(for: request.imageCacheKey) }
            })
    }
}

/// Runs async work to its end from synchronous code (the benchmark cases are synchronous).
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let failure = Mutex<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do { try await body() } catch { failure.withLock { $0 = error } }
        done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
}
