import Foundation
import Imago

/// The measurements of `imago bench pipeline`, on one loader with a memory cache and a temporary disk cache.
struct PipelineBench {
    struct Result {
        var memoryHitMedianMicroseconds = 0.0
        var memoryHitP99Microseconds = 0.0
        var missMilliseconds = 0.0
        var coalescedRequests = 0
        var coalescedDecodes = 0
        var fanInMilliseconds = 0.0
        var diskHitMilliseconds = 0.0
        /// With `--max-size` only.
        var thumbnails: ThumbnailFigures?

        var json: JSONOutput {
            .object(
                [
                    (
                        "memory_hit_us",
                        .object([
                            ("median", .rounded(memoryHitMedianMicroseconds)),
                            ("p99", .rounded(memoryHitP99Microseconds)),
                        ])
                    ),
                    ("miss_ms", .rounded(missMilliseconds)),
                    (
                        "coalesce",
                        .object([
                            ("requests", .int(coalescedRequests)), ("decodes", .int(coalescedDecodes)),
                            ("fanin_ms", .rounded(fanInMilliseconds)),
                        ])
                    ),
                    ("disk_hit_ms", .rounded(diskHitMilliseconds)),
                ] + (thumbnails.map { [("thumbnails", $0.json)] } ?? []))
        }

        var text: String {
            """
            memory hit:  median \(format(memoryHitMedianMicroseconds)) µs, p99 \(format(memoryHitP99Microseconds)) µs
            cold load:   median \(format(missMilliseconds)) ms
            coalesced:   \(coalescedRequests) requests, \(coalescedDecodes) decode(s), \(format(fanInMilliseconds)) ms
            disk hit:    median \(format(diskHitMilliseconds)) ms
            """ + (thumbnails.map { "\n" + $0.text } ?? "")
        }

        private func format(_ value: Double) -> String { String(format: "%.3f", value) }
    }

    let files: [String]
    let maxSize: Int?
    let requests: [ImageRequest]
    let configuration: ImagoConfiguration
    let factories = PluginRegistry.standardFactories()
    let loader: ImageLoader

    init(files: [String], maxSize: Int?, cacheDirectory: String) throws {
        self.files = files
        self.maxSize = maxSize
        requests = try files.map { file in
            var request = ImageRequest(url: try BenchFileTransport.url(for: file))
            if let maxSize {
                let box = PixelSize(width: maxSize, height: maxSize)
                request.processors = [ResizeProcessor(size: box, mode: .fit)]
                request.decodeOptions.targetSize = box
            }
            return request
        }
        var configuration = factories.standardConfiguration()
        configuration.dataCache = LoadSetup.diskCache(configuration.dataCache, in: cacheDirectory)
        self.configuration = configuration
        loader = try Self.makeLoader(factories, configuration)
    }

    static func makeLoader(_ factories: PluginRegistry, _ configuration: ImagoConfiguration) throws -> ImageLoader {
        var builder = PluginRegistry.Builder(try factories.configured(by: configuration))
        builder.add(BenchFileTransport())
        return ImageLoader(registry: builder.build(), settings: configuration.loader)
    }

    func measure(requests hits: Int, fanIn: Int) async throws -> Result {
        var result = Result()
        // Warm up: every file once, into both caches.
        for request in requests { _ = try await loader.image(for: request) }

        var hitTimes: [Double] = []
        hitTimes.reserveCapacity(hits)
        for index in 0..<hits {
            let request = requests[index % requests.count]
            let start = ContinuousClock.now
            _ = try await loader.image(for: request)
            hitTimes.append(Stopwatch.milliseconds(since: start) * 1000)
        }
        result.memoryHitMedianMicroseconds = Stopwatch.percentile(hitTimes, 0.5)
        result.memoryHitP99Microseconds = Stopwatch.percentile(hitTimes, 0.99)

        var missTimes: [Double] = []
        for index in 0..<max(5, requests.count) {
            // Data-cache writes run beside the decode: one landing after the removal would make this a disk hit.
            await loader.waitForPendingWrites()
            await loader.removeAllCaches()
            let start = ContinuousClock.now
            _ = try await loader.image(for: requests[index % requests.count])
            missTimes.append(Stopwatch.milliseconds(since: start))
        }
        result.missMilliseconds = Stopwatch.percentile(missTimes, 0.5)

        await loader.waitForPendingWrites()
        await loader.removeAllCaches()
        let decodesBefore = loader.statistics.decodes
        let fanInStart = ContinuousClock.now
        let shared = requests[0]
        let loader = self.loader
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<fanIn { group.addTask { _ = try await loader.image(for: shared) } }
            try await group.waitForAll()
        }
        result.fanInMilliseconds = Stopwatch.milliseconds(since: fanInStart)
        result.coalescedRequests = fanIn
        result.coalescedDecodes = loader.statistics.decodes - decodesBefore

        // A second loader on the same disk folder, its memory cache empty.
        for request in requests { _ = try await loader.image(for: request) }
        await loader.waitForPendingWrites()
        let second = try Self.makeLoader(factories, configuration)
        var diskTimes: [Double] = []
        for index in 0..<max(5, requests.count) {
            second.imageCache?.removeAll()
            let start = ContinuousClock.now
            let response = try await second.image(for: requests[index % requests.count])
            diskTimes.append(Stopwatch.milliseconds(since: start))
            // A figure for disk hits must come from disk hits.
            guard response.origin == .dataCache else {
                throw ImagoError(
                    .cacheFailed, "the disk cache did not serve the second loader (\(response.origin.rawValue))",
                    source: response.request.sourceString)
            }
        }
        result.diskHitMilliseconds = Stopwatch.percentile(diskTimes, 0.5)
        if let maxSize { result.thumbnails = try await measureThumbnails(maxSize: maxSize) }
        return result
    }
}
