import CImagoShim
import CWebP
import Foundation
import Imago
import ImagoServer
import Synchronization

/// Issue 28: the serve path against its physical floor. A ~2040x1356 photo made a 512 px wide image of its own
/// format at quality 80 three ways, interleaved in one process:
/// - **floor**: the C libraries called directly (imago_floor.c; libwebp from Swift): the same reduced decode
///   Imago chooses, a minimal SSE2 Catmull-Rom resize to the same size, the encoder at the same settings;
/// - **imago**: the serve loader (file transport, scaled decode, `ResizeProcessor`) and the encoder, without HTTP;
/// - **serve**: `GET /unsafe/w=512,q=80/plain/file…` to an in-process `ImageServer` on loopback, result cache off.
/// Figures are process CPU per request (every thread), medians over the runs (best and wall time beside them);
/// ratios are to the floor. The JPEG case also times the steps apart (decode, resize, encode, the 3/8 scale, the
/// ETag hash). `IMAGO_FLOOR_ONLY=imago` (a comma-separated list of path names) runs only those, for a profiler.
///
///     imago-bench serve-floor [--runs N] [jpeg] [png] [webp]
enum ServeFloorBenchmark {
    static let width = 512
    static let quality = 80
    static let batch = 4

    struct Case {
        let name: String
        var paths: [(String, () throws -> Void)]
    }

    static func run(runs: Int, formats: [String]) throws {
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.resultCacheBytes = 0
        let files = try ServeFloorInputs.files()
        settings.allowedSources = [ServeFloorInputs.folder.absoluteString]
        var configuration = PluginRegistry.standardFactories().standardConfiguration()
        configuration.dataCache = nil
        configuration.imageCache = nil
        let loader = try ImageServer.loader(configuration: configuration, settings: settings)
        let server = try ImageServer(settings: settings, loader: loader)
        defer { server.stop() }
        let client = try LoopbackClient(port: server.port)
        let floor = imago_floor_create()!
        defer { imago_floor_destroy(floor) }

        let only = ProcessInfo.processInfo.environment["IMAGO_FLOOR_ONLY"]
        let cases = try files.filter { formats.isEmpty || formats.contains($0.format.rawValue) }.map { file in
            var benchmark = try makeCase(
                file.format, url: file.url, loader: loader, settings: settings, client: client, floor: floor)
            if let only {
                benchmark.paths = benchmark.paths.filter { only.split(separator: ",").contains(Substring($0.0)) }
            }
            return benchmark
        }
        for benchmark in cases {
            for (_, path) in benchmark.paths { try path() }  // warm-up
        }
        var cpu = cases.map { [[Double]](repeating: [], count: $0.paths.count) }
        var wall = cpu
        for _ in 0..<runs {
            for (index, benchmark) in cases.enumerated() {
                for (slot, (_, path)) in benchmark.paths.enumerated() {
                    let (startCPU, start) = (processCPUMilliseconds(), DispatchTime.now().uptimeNanoseconds)
                    for _ in 0..<batch { try path() }
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
                    cpu[index][slot].append((processCPUMilliseconds() - startCPU) / Double(batch))
                    wall[index][slot].append(elapsed / Double(batch))
                }
            }
        }
        print(
            "serve-floor: CPU ms per request, median of \(runs) runs of \(batch) (best, wall median), interleaved;"
                + " ratio of medians to the floor")
        for (index, benchmark) in cases.enumerated() {
            let medians = cpu[index].map(BenchmarkCase.median)
            let best = cpu[index].map { $0.min() ?? 0 }
            let walls = wall[index].map(BenchmarkCase.median)
            let cells = benchmark.paths.indices.map {
                String(
                    format: "%@ %6.2f (%6.2f, %6.2f) %5.3fx", benchmark.paths[$0].0, medians[$0], best[$0], walls[$0],
                    medians[$0] / medians[0])
            }
            print(benchmark.name)
            print("    " + cells.prefix(3).joined(separator: "  "))
            if cells.count > 3 {
                let steps = benchmark.paths.indices.dropFirst(3).map {
                    String(format: "%@ %.2f", benchmark.paths[$0].0, medians[$0])
                }
                print("    steps (CPU ms): " + steps.joined(separator: ", "))
            }
        }
    }

    /// The three paths for one source file.
    static func makeCase(
        _ format: ImageFormat, url: URL, loader: ImageLoader, settings: ServeSettings, client: LoopbackClient,
        floor: OpaquePointer
    ) throws -> Case {
        let data = try Data(contentsOf: url)
        let encoder = loader.registry.encoder(for: format)!
        // The loader request the server renders for `w=512`: a fit into 512 x maxOutputSide, decoded reduced for
        // a 512 px square both sides must cover.
        var decode = DecodeOptions()
        decode.frames = encoder.supportsAnimation ? .all : .first
        decode.targetSize = PixelSize(width: width, height: width)
        decode.contentMode = .fill
        var resize = ResizeProcessor(width: width, height: settings.maxOutputSide, mode: .fit)
        resize.limits = loader.settings.limits
        let request = ImageRequest(url: url, processors: [resize], decodeOptions: decode)
        var encodeOptions = EncodeOptions(allFrames: true)
        encodeOptions.quality = quality
        let options = encodeOptions
        let imago = {
            let image = Mutex<DecodedImage?>(nil)
            try runBlocking {
                let loaded = try await loader.image(for: request).image
                image.withLock { $0 = loaded }
            }
            _ = try encoder.encode(image.withLock { $0! }, options: options)
        }
        // What Imago decodes to and outputs, so the floor does the same work.
        let decoded = try loader.registry.decoder(for: data)!.decode(data, options: decode).raster
        let output = try resize.process(try loader.registry.decoder(for: data)!.decode(data, options: decode)).raster
        let (outWidth, outHeight) = (UInt32(output.width), UInt32(output.height))
        let target =
            "/unsafe/w=\(width),q=\(quality)/plain/" + url.absoluteString.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
        let serve = {
            let (status, bytes) = try client.get(target)
            guard status == 200, bytes > 0 else { throw BenchmarkFailure("serve answered \(status) to \(target)") }
        }
        let floorPath: () throws -> Void
        var detail = "\(decoded.width)x\(decoded.height)"
        // For JPEG: the DCT scale Imago chose, and its fast mode (the result is shrunk at least 1.25x further).
        let sourceWidth = try loader.registry.decoder(for: data)!.decode(data).width
        let eighths = (1...8).first { (sourceWidth * $0 + 7) / 8 == decoded.width } ?? 8
        let fast: Int32 = Double(decoded.width) / Double(output.width) >= 1.25 && eighths < 8 ? 1 : 0
        switch format {
        case .jpeg:
            detail = "\(eighths)/8\(fast == 1 ? " fast" : "") " + detail
            floorPath = {
                let size = data.withUnsafeBytes {
                    imago_floor_jpeg(
                        floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, UInt32(eighths), fast,
                        outWidth, outHeight, Int32(quality))
                }
                guard size > 0 else { throw BenchmarkFailure("floor JPEG failed") }
            }
        case .png:
            floorPath = {
                let size = data.withUnsafeBytes {
                    imago_floor_png(
                        floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, outWidth, outHeight, 6)
                }
                guard size > 0 else { throw BenchmarkFailure("floor PNG failed") }
            }
        default:
            let webp = WebPFloor(data: data, width: decoded.width, height: decoded.height)
            floorPath = { try webp.run(floor: floor, width: outWidth, height: outHeight, quality: Float(quality)) }
        }
        var paths = [("floor", floorPath), ("imago", imago), ("serve", serve)]
        if format == .jpeg {
            paths += try JPEGSteps.paths(
                data: data, decode: decode, resize: resize, encoder: encoder, options: options, eighths: eighths,
                fast: fast)
        }
        return Case(name: "\(format) \(data.count / 1024) KB > \(outWidth)x\(outHeight) (\(detail))", paths: paths)
    }
}

/// libwebp called directly: decode scaled to Imago's decoded size into a reused buffer, the floor's resize,
/// WebPEncodeRGBA at the quality.
final class WebPFloor {
    let data: Data
    let width: Int
    let height: Int
    var buffer: [UInt8]

    init(data: Data, width: Int, height: Int) {
        (self.data, self.width, self.height) = (data, width, height)
        buffer = [UInt8](repeating: 0, count: width * height * 4)
    }

    func run(floor: OpaquePointer, width outWidth: UInt32, height outHeight: UInt32, quality: Float) throws {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw BenchmarkFailure("libwebp version mismatch") }
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(width)
        config.options.scaled_height = Int32(height)
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        let status = buffer.withUnsafeMutableBytes { pixels in
            config.output.u.RGBA.rgba = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = pixels.count
            return data.withUnsafeBytes {
                WebPDecode($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, &config)
            }
        }
        guard status == VP8_STATUS_OK else { throw BenchmarkFailure("floor WebP decode failed") }
        let resized = buffer.withUnsafeBytes {
            imago_floor_resize(
                floor, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(width), UInt32(height), width * 4,
                outWidth, outHeight)
        }
        guard resized == 0 else { throw BenchmarkFailure("floor resize failed") }
        var output: UnsafeMutablePointer<UInt8>?
        let size = WebPEncodeRGBA(
            imago_floor_pixels(floor), Int32(outWidth), Int32(outHeight), Int32(outWidth * 4), quality, &output)
        WebPFree(output)
        guard size > 0 else { throw BenchmarkFailure("floor WebP encode failed") }
    }
}
