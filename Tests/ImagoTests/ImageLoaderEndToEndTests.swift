import Foundation
import Imago
import ImagoTestSupport
import Testing

/// The loader with the real transports, codecs and caches, against a loopback server and local files.
@Suite(.serialized) final class ImageLoaderEndToEndTests {
    let folder: URL
    let server: ImageFolderServer
    let png: Data

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-loader-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // 64x48: left half red, right half half-transparent blue.
        var pixels: [UInt8] = []
        for _ in 0..<48 {
            for x in 0..<64 { pixels += x < 32 ? [255, 0, 0, 255] : [0, 0, 255, 128] }
        }
        let image = DecodedImage(raster: try Raster(width: 64, height: 48, pixels: pixels), format: .png)
        png = try PNGCodec().encode(image)
        try png.write(to: folder.appendingPathComponent("a.png"))
        try Data("hello, this is not an image".utf8).write(to: folder.appendingPathComponent("text.txt"))
        server = try ImageFolderServer(folder: folder)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The HTTP(S) transports the network tests run with: libcurl's (the default on Linux) and URLSession's.
    static let httpTransports = ["curl", "urlsession"]

    /// A loader of the real plugins (`http` names the HTTP transport), with a memory cache and a disk cache in
    /// `cacheFolder`.
    func makeLoader(http: String = "curl", cacheFolder: String = "cache", settings: LoaderSettings? = nil)
        -> ImageLoader
    {
        var builder = PluginRegistry.Builder()
        builder.add(http == "curl" ? CurlTransport() as any ImageTransport : HTTPTransport())
        builder.add(FileTransport())
        builder.add(DataURITransport())
        builder.add(Codec(decoder: PNGCodec(), encoder: PNGCodec()))
        builder.add(Codec(decoder: JPEGCodec(), encoder: JPEGCodec()))
        builder.add(Codec(decoder: GIFCodec(), encoder: GIFCodec()))
        builder.add(Codec(decoder: WebPCodec(), encoder: WebPCodec()))
        builder.imageCache = MemoryImageCache()
        builder.dataCache = DiskDataCache(
            configuration: DiskDataCache.Configuration(directory: folder.appendingPathComponent(cacheFolder)))
        let registry = builder.build()
        var defaults = LoaderSettings()
        defaults.retry = RetryPolicy(maxAttempts: 3, initialDelay: 0.01, maxDelay: 0.05)
        return ImageLoader(registry: registry, settings: settings ?? defaults)
    }

    @Test(arguments: httpTransports) func fiftyCallersOfOneURLMakeOneRequestAndOneDecode(http: String) async throws {
        let loader = makeLoader(http: http)
        let request = ImageRequest(url: server.url("/img/a.png?key=fifty"))
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<50 { group.addTask { try await loader.image(for: request) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.count == 50)
        #expect(responses.allSatisfy { $0.image.width == 64 && $0.image.height == 48 })
        #expect(try await server.count("fifty") == 1)
        #expect(loader.statistics.decodes == 1)
        #expect(responses[0].image.raster[0, 0] == RGBA(255, 0, 0))
        #expect(responses[0].image.raster[40, 10] == RGBA(0, 0, 255, 128))
    }

    @Test(arguments: httpTransports) func retriesServerErrorsAndReportsAttempts(http: String) async throws {
        let loader = makeLoader(http: http)
        let response = try await loader.image(for: ImageRequest(url: server.url("/img/a.png?fail=2&key=flaky")))
        #expect(response.attempts == 3)
        #expect(response.origin == .network)
        #expect(try await server.count("flaky") == 3)
    }

    @Test(arguments: httpTransports) func notFoundIsOneRequestAndAClearError(http: String) async throws {
        let loader = makeLoader(http: http)
        let url = server.url("/img/missing.png?key=missing")
        let error = await #expect(throws: ImagoError.self) { try await loader.image(for: ImageRequest(url: url)) }
        #expect(error?.statusCode == 404)
        #expect(error?.description.hasSuffix("404 Not Found") == true)
        #expect(try await server.count("missing") == 1)
    }

    @Test(arguments: httpTransports) func notAnImage(http: String) async throws {
        let loader = makeLoader(http: http)
        let error = await #expect(throws: ImagoError.self) {
            try await loader.image(for: ImageRequest(url: self.server.url("/img/text.txt")))
        }
        #expect(error?.kind == .decodingFailed(format: nil))
        #expect(error?.reason == "not an image: unknown format")
    }

    @Test(arguments: httpTransports) func memoryThenDiskThenRevalidation(http: String) async throws {
        let request = ImageRequest(url: server.url("/img/a.png?etag=%22v1%22&cc=no-cache&key=reval"))
        let first = makeLoader(http: http, cacheFolder: "reval")
        #expect(try await first.image(for: request).origin == .network)
        await first.waitForPendingWrites()
        #expect(try await first.image(for: request).origin == .memory)
        // A second loader: empty memory cache, warm disk cache with a stale entry that has an ETag.
        let second = makeLoader(http: http, cacheFolder: "reval")
        let revalidated = try await second.image(for: request)
        #expect(revalidated.origin == .dataCache)
        #expect(revalidated.attempts == 1)
        #expect(revalidated.image.width == 64)
        #expect(try await server.count("reval") == 2)
    }

    @Test(arguments: httpTransports) func freshDiskEntryNeedsNoRequest(http: String) async throws {
        let request = ImageRequest(url: server.url("/img/a.png?cc=max-age%3D600&key=fresh"))
        let first = makeLoader(http: http, cacheFolder: "fresh")
        _ = try await first.image(for: request)
        await first.waitForPendingWrites()
        let response = try await makeLoader(http: http, cacheFolder: "fresh").image(for: request)
        #expect(response.origin == .dataCache)
        #expect(response.attempts == 0)
        #expect(try await server.count("fresh") == 1)
    }

    @Test func localFileWithProcessorsAndScale() async throws {
        let loader = makeLoader()
        var request = ImageRequest(
            url: folder.appendingPathComponent("a.png"),
            processors: [ResizeProcessor(width: 32, height: 32, mode: .fill)])
        request.scale = 2
        let response = try await loader.image(for: request)
        #expect(response.image.width == 32 && response.image.height == 32)
        #expect(response.image.pointSize == (16, 16))
        // The premultiplied resize keeps the translucent half blue, never darkened towards black.
        let edge = response.image.raster[20, 16]
        #expect(edge.b >= 250 && edge.a > 100 && edge.a < 160)
    }

    @Test(arguments: [ImageFormat.gif, .webp])
    func animationsAreResizedFrameByFrame(format: ImageFormat) async throws {
        let colours = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)]
        let frames = try colours.map { ImageFrame(raster: try Raster(width: 40, height: 20, fill: $0), duration: 0.1) }
        let animation = DecodedImage(frames: frames, loopCount: 0, format: format, hasAlpha: false)
        let data: Data =
            format == .gif
            ? try GIFCodec().encode(animation)
            : try WebPCodec().encode(animation, options: EncodeOptions(lossless: true))
        let file = folder.appendingPathComponent("anim.\(format)")
        try data.write(to: file)
        let loader = makeLoader()
        let response = try await loader.image(
            for: ImageRequest(url: file, processors: [ResizeProcessor(width: 10, height: 10)]))
        #expect(response.image.format == format)
        #expect(response.image.frames.count == 3)
        #expect(response.image.frames.allSatisfy { $0.raster.width == 10 && $0.raster.height == 5 })
        for (frame, colour) in zip(response.image.frames, colours) {
            let pixel = frame.raster[5, 2]
            #expect(abs(Int(pixel.r) - Int(colour.r)) < 8 && abs(Int(pixel.g) - Int(colour.g)) < 8)
        }
    }

    @Test func dataURI() async throws {
        let loader = makeLoader()
        let url = URL(string: "data:image/png;base64," + png.base64EncodedString())!
        let response = try await loader.image(for: ImageRequest(url: url))
        #expect(response.image.width == 64)
        #expect(response.origin == .network)
    }

    @Test(arguments: 1...8)
    func exifOrientationIsApplied(orientation: Int) async throws {
        try SharedCorpus.require()
        let file = SharedCorpus.file("jpeg/exif-orientation/Landscape_\(orientation).jpg")
        let loader = makeLoader()
        let upright = try await loader.image(for: ImageRequest(url: file))
        var stored = ImageRequest(url: file)
        stored.appliesOrientation = false
        let raw = try await loader.image(for: stored)
        #expect(upright.image.orientation == .up)
        #expect(raw.image.orientation.rawValue == orientation)
        // Every Landscape_N file shows the same upright landscape picture.
        #expect(upright.image.width > upright.image.height)
        #expect(raw.image.orientation.swapsDimensions == (raw.image.width < raw.image.height))
        let reference = try await loader.image(
            for: ImageRequest(url: file.deletingLastPathComponent().appendingPathComponent("Landscape_1.jpg")))
        #expect(try Self.difference(upright.image, reference.image) < 20)
        if orientation != 1 {
            // Without orientation the stored pixels are visibly turned or mirrored.
            var rawUp = raw.image
            rawUp.orientation = .up
            #expect(try Self.difference(rawUp, reference.image) > 20)
        }
    }

    /// Mean absolute channel difference of two images shrunk to 8x8.
    static func difference(_ a: DecodedImage, _ b: DecodedImage) throws -> Double {
        let shrink = ResizeProcessor(width: 8, height: 8, mode: .fill, filter: .box)
        let x = try shrink.process(a).raster.pixels
        let y = try shrink.process(b).raster.pixels
        guard x.count == y.count else { return .infinity }
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }
}
