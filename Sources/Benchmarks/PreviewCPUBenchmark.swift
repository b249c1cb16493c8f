import Foundation
import Imago
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `imago-bench previews-cpu`: what progressive previews cost. A 12 MP progressive JPEG (made once with vips
/// from a synthetic photo) is trickled through the loader by an in-process transport over about 2 s, loaded
/// without and with previews; the process CPU time of each load is compared with one full decode of the file.
/// Goal (issue 18): previews cost at most one full decode more CPU than the load without them.
enum PreviewCPUBenchmark {
    static func run(runs: Int) throws {
        let data = try progressiveJPEG()
        let decodeCPU = median((0..<max(runs, 3)).map { _ in cpuSeconds { _ = try? JPEGCodec().decode(data) } })
        print("previews-cpu: \(data.count) bytes, 4000x3000 progressive, trickled over 2 s in 16 KiB chunks")
        print(String(format: "  one full decode: %.0f ms CPU", decodeCPU * 1000))
        for (label, processors) in [
            ("full size", [any ImageProcessor]()), ("resize 512", [ResizeProcessor(width: 512, height: 512)]),
        ] {
            var plain: [Double] = []
            var previewing: [Double] = []
            var previewCounts: [Int] = []
            for _ in 0..<runs {
                plain.append(try cpuSeconds(load: data, processors: processors, previews: false).cpu)
                let (cpu, previews) = try cpuSeconds(load: data, processors: processors, previews: true)
                previewing.append(cpu)
                previewCounts.append(previews)
            }
            let extra = median(previewing) - median(plain)
            print(
                String(
                    format: "  %@: without previews %.0f ms CPU, with %.0f ms (%d previews): +%.0f ms = %.2f decodes",
                    label, median(plain) * 1000, median(previewing) * 1000, previewCounts.sorted()[runs / 2],
                    extra * 1000, extra / decodeCPU))
        }
    }

    /// One trickled load's process CPU time, and how many previews it gave.
    static func cpuSeconds(load data: Data, processors: [any ImageProcessor], previews: Bool) throws
        -> (cpu: Double, previews: Int)
    {
        var builder = PluginRegistry.Builder()
        builder.add(TrickleTransport(data: data, chunk: 16 * 1024, seconds: 2))
        builder.add(Codec(decoder: JPEGCodec()))
        let registry = builder.build()
        let loader = ImageLoader(registry: registry)
        let request = ImageRequest(url: URL(string: "trickle://bench/photo.jpg")!, processors: processors)
        let count = Mutex(0)
        let cpu = cpuSeconds {
            try? runBlocking {
                if previews {
                    _ = try await loader.image(for: request, previews: PreviewPolicy()) { _ in
                        count.withLock { $0 += 1 }
                    }
                } else {
                    _ = try await loader.image(for: request)
                }
            }
        }
        return (cpu, count.withLock { $0 })
    }

    /// User plus system CPU time of the process while `body` runs.
    static func cpuSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var usage = rusage()
            #if os(Linux)
                getrusage(RUSAGE_SELF.rawValue, &usage)
            #else
                getrusage(RUSAGE_SELF, &usage)
            #endif
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        }
        let start = now()
        body()
        return now() - start
    }

    static func median(_ values: [Double]) -> Double { BenchmarkCase.median(values) }

    /// The test photo: a synthetic 4000x3000 picture, JPEG-encoded, then made progressive by vips.
    static func progressiveJPEG() throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-bench-previews")
        let progressive = folder.appendingPathComponent("photo-progressive.jpg")
        if let data = try? Data(contentsOf: progressive) { return data }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let baseline = folder.appendingPathComponent("photo-baseline.jpg")
        let raster = try Raster(
            width: 4000, height: 3000, pixels: SyntheticImage.pixels(width: 4000, height: 3000, grain: 14))
        try JPEGCodec().encode(DecodedImage(raster: raster, format: .jpeg)).write(to: baseline)
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        vips.arguments = ["vips", "jpegsave", baseline.path, progressive.path, "--interlace", "--Q", "90"]
        try vips.run()
        vips.waitUntilExit()
        guard vips.terminationStatus == 0 else {
            throw ImagoError(.encodingFailed(format: .jpeg), "vips jpegsave failed (install libvips-tools)")
        }
        return try Data(contentsOf: progressive)
    }
}

/// Serves one body for `trickle://` in chunks spread evenly over `seconds`, sleeping in between (no CPU).
struct TrickleTransport: ImageTransport {
    let data: Data
    let chunk: Int
    let seconds: Double
    var schemes: Set<String> { ["trickle"] }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let (data, chunk, seconds) = (data, chunk, seconds)
        return AsyncThrowingStream { continuation in
            let task = Task {
                continuation.yield(.response(TransportMetadata(statusCode: 200, expectedLength: Int64(data.count))))
                let pieces = (data.count + chunk - 1) / chunk
                let pause = UInt64(seconds / Double(pieces) * 1e9)
                var offset = 0
                while offset < data.count {
                    if Task.isCancelled { return continuation.finish(throwing: CancellationError()) }
                    let end = min(offset + chunk, data.count)
                    continuation.yield(.bytes(data.subdata(in: offset..<end)))
                    offset = end
                    try? await Task.sleep(nanoseconds: pause)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
