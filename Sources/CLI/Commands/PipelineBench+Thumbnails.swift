import Foundation
import Imago

/// The thumbnail batch of `imago bench pipeline --max-size S`: every FILE made a JPEG (quality 75, in memory) that
/// fits S×S, by a loader with both caches off, against the same work done without the loader in the same run.
extension PipelineBench {
    /// The batch's figures: the best of a few rounds each, alternating, so that neither side gets a warmer machine.
    struct ThumbnailFigures {
        var files = 0
        var threads = 0
        var batchSeconds = Double.infinity
        /// The same loads run on the compute executor's threads (`withTaskExecutorPreference`), as `imago load` runs
        /// them: the glue between stages no longer hops through the cooperative pool.
        var computeBatchSeconds = Double.infinity
        var baselineSeconds = Double.infinity

        /// Loader time over baseline time: what the loader's scheduling and glue cost on top of the codec's work.
        var ratio: Double { batchSeconds / baselineSeconds }

        var json: JSONOutput {
            .object([
                ("files", .int(files)), ("threads", .int(threads)), ("batch_s", .double(batchSeconds)),
                ("compute_batch_s", .double(computeBatchSeconds)), ("baseline_s", .double(baselineSeconds)),
                ("ratio", .double(ratio)), ("compute_ratio", .double(computeBatchSeconds / baselineSeconds)),
            ])
        }

        var text: String {
            "thumbnails:  \(files) file(s) on \(threads) thread(s): loader "
                + String(
                    format: "%.3f ms (%.3f ms on the compute executor), baseline %.3f ms, ratio %.3f (%.3f)",
                    batchSeconds * 1000, computeBatchSeconds * 1000, baselineSeconds * 1000, ratio,
                    computeBatchSeconds / baselineSeconds)
        }
    }

    static let thumbnailRounds = 3
    static let thumbnailEncoding = EncodeOptions(quality: 75)

    func measureThumbnails(maxSize: Int) async throws -> ThumbnailFigures {
        var uncached = configuration
        uncached.imageCache = nil
        uncached.dataCache = nil
        let loader = try Self.makeLoader(factories, uncached)
        let registry = try factories.configured(by: uncached)
        guard let encoder = registry.encoder(for: .jpeg) else {
            throw ImagoError(.encodingFailed(format: .jpeg), "no JPEG encoder is registered")
        }
        // The loader decodes on at most this many threads at once; the baseline gets as many.
        let threads = max(1, min(uncached.loader.maxConcurrentDecodes, WorkExecutor.compute.threadCount, files.count))
        let baselineExecutor = WorkExecutor(name: "imago.bench.baseline", threadCount: threads)
        let direct = DirectThumbnailer(
            registry: registry, encoder: encoder, limits: uncached.loader.limits,
            resize: ResizeProcessor(size: PixelSize(width: maxSize, height: maxSize), mode: .fit))

        var figures = ThumbnailFigures(files: requests.count, threads: threads)
        for _ in 0..<Self.thumbnailRounds {
            let batchStart = ContinuousClock.now
            try await Self.loaderBatch(requests, loader: loader, encoder: encoder)
            figures.batchSeconds = min(figures.batchSeconds, (ContinuousClock.now - batchStart).seconds)

            let computeStart = ContinuousClock.now
            try await withTaskExecutorPreference(WorkExecutor.compute) {
                try await Self.loaderBatch(requests, loader: loader, encoder: encoder)
            }
            figures.computeBatchSeconds = min(
                figures.computeBatchSeconds, (ContinuousClock.now - computeStart).seconds)

            let baselineStart = ContinuousClock.now
            try await direct.run(
                files: files, options: requests[0].decodeOptions, threads: threads, on: baselineExecutor)
            figures.baselineSeconds = min(
                figures.baselineSeconds, (ContinuousClock.now - baselineStart).seconds)
        }
        return figures
    }

    /// Every request started together through the loader; each image encoded as soon as it arrives.
    private static func loaderBatch(_ requests: [ImageRequest], loader: ImageLoader, encoder: any ImageEncoder)
        async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for request in requests {
                // Child tasks keep the caller's executor preference, if any.
                group.addTask {
                    let image = try await loader.image(for: request).image
                    _ = try await WorkExecutor.compute.run { try encoder.encode(image, options: thumbnailEncoding) }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// The baseline: read, the codec's decode at the target size, `ResizeProcessor`, the JPEG encode, called directly,
/// each thread taking every `threads`-th file in turn.
private struct DirectThumbnailer: Sendable {
    let registry: PluginRegistry
    let encoder: any ImageEncoder
    let limits: DecodeLimits
    let resize: ResizeProcessor

    func run(files: [String], options: DecodeOptions, threads: Int, on executor: WorkExecutor) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    try await executor.run {
                        for file in stride(from: thread, to: files.count, by: threads).map({ files[$0] }) {
                            try thumbnail(file, options: options)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func thumbnail(_ file: String, options: DecodeOptions) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let decoded = try registry.decoder(for: data, limits: limits).decode(data, options: options)
        _ = try encoder.encode(try resize.process(decoded), options: PipelineBench.thumbnailEncoding)
    }
}
