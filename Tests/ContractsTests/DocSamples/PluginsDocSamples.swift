import Foundation
import Imago
import ImagoContracts
import Synchronization
import Testing
import XCTest

// The Swift samples of Docs/Plugins.md, verbatim (DocSamplesTests checks they are here), with the few stand-ins
// they name and tests that run them.

// MARK: A transport

@Test func memoryTransportKeepsItsContract() async {
    let transport = MemoryTransport()
    let contract = ImageTransportContract(
        transport: transport, serve: { transport.put($0) }, missingSource: URL(string: "mem://store/missing")!)
    let report = await contract.run()
    #expect(report.passed, "\(report)")
}

struct MirrorTransport: ImageTransport {
    var schemes: Set<String> { ["mirror"] }
    var cachePolicy: (any TransportCachePolicy)? { HTTPCachePolicy() }  // its answers carry HTTP headers

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.response(TransportMetadata(statusCode: 200, cacheControl: "max-age=60")))
            continuation.yield(.bytes(Data("not an image".utf8)))
            continuation.finish()
        }
    }
}

@Test func aTransportWithTheHTTPPolicyIsKeptAndOneWithoutIsNot() async throws {
    let cache = DictionaryDataCache(byteLimit: 1 << 20)
    var builder = PluginRegistry.Builder()
    let memory = MemoryTransport()
    builder.add(MirrorTransport())
    builder.add(memory)
    builder.dataCache = cache
    let registry = builder.build()
    let loader = ImageLoader(registry: registry)
    let mirrored = ImageRequest(url: URL(string: "mirror://a/b")!)
    let local = ImageRequest(url: memory.put(Data("bytes".utf8)))
    #expect(try await loader.data(for: mirrored) == Data("not an image".utf8))
    #expect(try await loader.data(for: local) == Data("bytes".utf8))
    #expect(await cache.entry(for: mirrored.dataCacheKey)?.metadata.expires != nil)
    #expect(await cache.entry(for: local.dataCacheKey) == nil)
}

// MARK: A decoder and an encoder

/// The stand-ins the decoder sample names: a 3x2 P6 and its pixels.
let ppmBytes = PAMFixtures.rgb.data
let expectedRGBA: [UInt8] = [
    255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255, 40, 50, 60, 255, 255, 255, 255, 255,
]

let fixture = DecoderFixture(
    name: "3x2 P6", data: ppmBytes, width: 3, height: 2, pixels: .rgba(expectedRGBA))

@Test func pamDecoderKeepsItsContract() async {
    let contract = ImageDecoderContract(
        makeDecoder: { PAMCodec() }, fixtures: [fixture],
        sniffSamples: SniffSample.builtIn.filter { $0.format != ImageFormat("ppm") },  // PPM is ours too
        hugeHeaders: [Data("P6\n100000 100000\n255\n".utf8)])
    let report = await contract.run()
    #expect(report.passed, "\(report)")
}

@Test func pamEncoderKeepsItsContract() async {
    let report = await ImageEncoderContract(makeEncoder: { PAMCodec() }, makeDecoder: { PAMCodec() }).run()
    #expect(report.passed, "\(report)")
}

// MARK: A memory cache of images

@Test func theImageCacheSampleKeepsItsContract() async {
    let contract = ImageCacheContract(
        makeCache: { DictionaryImageCache(countLimit: 16, costLimit: 64 * 1024, entryCostLimit: 16 * 1024) },
        countLimit: 16, costLimit: 64 * 1024, entryCostLimit: 16 * 1024, evictionOrder: .leastRecentlyUsed)
    let report = await contract.run()
    #expect(report.passed, "\(report)")
}

// MARK: A data cache of bytes

final class FlakyDataCache: DataCache {
    let base = DictionaryDataCache(byteLimit: 1 << 20)
    let reachable = Mutex(true)

    func entry(for key: CacheKey) async -> DataCacheEntry? {
        await entry(for: key, reporting: .ignoring)
    }
    func entry(for key: CacheKey, reporting failures: CacheFailureReporter) async -> DataCacheEntry? {
        guard reachable.withLock({ $0 }) else {
            failures.report(ImagoError(.cacheFailed, "flaky cache: server unreachable"))
            return nil
        }
        return await base.entry(for: key)
    }
    func store(_ entry: DataCacheEntry, for key: CacheKey) async throws { try await base.store(entry, for: key) }
    func removeEntry(for key: CacheKey) async { await base.removeEntry(for: key) }
    func removeAll() async { await base.removeAll() }
    var defaultMaxAge: Double { 3600 }
}

@Test func aDataCacheReadFailureIsAnEventAndAMiss() async throws {
    let cache = FlakyDataCache()
    cache.reachable.withLock { $0 = false }
    var builder = PluginRegistry.Builder()
    let transport = MemoryTransport()
    builder.add(transport)
    builder.add(Codec(decoder: PAMCodec(), encoder: PAMCodec()))
    builder.dataCache = cache
    let registry = builder.build()
    let failures = Mutex<[String]>([])
    let listener = ImageLoadEventClosure { event in
        if case .dataCacheReadFailed(let error) = event.kind { failures.withLock { $0.append(error.reason) } }
    }
    let url = transport.put(PAMFixtures.rgb.data)
    let response = try await ImageLoader(registry: registry).image(for: ImageRequest(url: url), listener: listener)
    #expect(response.origin == .network)
    #expect(failures.withLock { $0 } == ["flaky cache: server unreachable"])
}

// MARK: A processor

struct SquareThumbnail: SizeAwareProcessor {
    let side: Int
    var identifier: String { "square(\(side))" }
    var decodeSizeNeed: DecodeSizeNeed { .covering(PixelSize(width: side, height: side)) }
    func process(_ image: DecodedImage) throws -> DecodedImage {
        try ResizeProcessor(width: side, height: side, mode: .fill).process(image)
    }
}

@Test func theSquareThumbnailAsksForAReducedDecode() async throws {
    let thumbnail = SquareThumbnail(side: 2)
    #expect(thumbnail.decodeSizeNeed == .covering(PixelSize(width: 2, height: 2)))
    let image = try thumbnail.process(try PAMCodec().decode(PAMFixtures.rgb.data))
    #expect(image.width == 2 && image.height == 2)
}

// MARK: Registering a plugin

@Test func theRegistrationSamplesRegister() throws {
    var builder = PluginRegistry.Builder(.standard())
    builder.add(MemoryTransport())  // serves mem://
    builder.add(PAMCodec())  // its decoder is asked before the built-in ones
    builder.imageCache = DictionaryImageCache(countLimit: 200)
    #expect(builder.build().decoders.first is PAMCodec && builder.build().encoder(for: PAMCodec.pam) is PAMCodec)
    builder.add(
        PluginFactory<any ImageTransport>(name: "memory", defaultSettings: .object(["chunkSize": .number(16384)])) {
            settings in
            MemoryTransport(chunkSize: try settings.int("chunkSize", default: 16384, in: 1...(1 << 24)))
        })
    builder.add(PluginFactory<Codec>(name: "pam") { _ in Codec(decoder: PAMCodec(), encoder: PAMCodec()) })
    builder.add(
        PluginFactory<any ImageProcessor>(name: "grayscale") { settings in
            GrayscaleProcessor(intensity: try settings.double("intensity", default: 1, in: 0...1))
        })
    let registry = builder.build()
    #expect(registry.transport(for: URL(string: "mem://store/a")!) is MemoryTransport)
    #expect(registry.factoryNames(.processor).contains("grayscale"))
}

/// The stand-in the loader sample names: an interceptor that counts the loads it sees.
struct TracingInterceptor: ImageInterceptor {
    static let loads = Mutex(0)
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        Self.loads.withLock { $0 += 1 }
        return try await chain.proceed()
    }
}

@Test func theLoaderSamplesAddATransportAndAnInterceptor() async throws {
    let loader = ImageLoader.standard { $0.add(MemoryTransport()) }  // the built-ins and one transport more
    let traced = loader.with { $0.add(TracingInterceptor()) }  // the same loader with one interceptor more
    let memory = try #require(traced.registry.transport(for: URL(string: "mem://store/a")!) as? MemoryTransport)
    let png = try PNGCodec().encode(
        DecodedImage(raster: try Raster(width: 2, height: 2, fill: RGBA(1, 2, 3)), format: .png))
    let url = memory.put(png)
    let before = TracingInterceptor.loads.withLock { $0 }
    _ = try await traced.image(for: ImageRequest(url: url))
    #expect(TracingInterceptor.loads.withLock { $0 } == before + 1)
    #expect(
        loader.registry.interceptors.isEmpty && traced.registry.transports.count == loader.registry.transports.count)
}

/// The configuration file of the sample, as Docs/Plugins.md shows it.
let pluginsDocConfiguration = """
    {
      "transports": ["http", "file", "data", {"name": "memory", "settings": {"chunkSize": 4096}}],
      "codecs": ["png", "jpeg", "gif", "webp", "pam"],
      "imageCache": {"name": "dictionary", "settings": {"countLimit": 200}},
      "processing": {"thumbnail": [{"name": "resize", "settings": {"width": 200, "height": 200}}, "grayscale"]},
      "interceptors": [{"name": "fallback", "settings": {"grey": 200}}]
    }
    """

@Test func theFactoriesSampleLoadsAThumbnail() async throws {
    let configurationFile = FileManager.default.temporaryDirectory.appendingPathComponent("imago-doc-\(UUID()).json")
    try Data(pluginsDocConfiguration.utf8).write(to: configurationFile)
    defer { try? FileManager.default.removeItem(at: configurationFile) }
    let red = try Raster(width: 400, height: 300, fill: RGBA(255, 0, 0))
    let png = try PNGCodec().encode(DecodedImage(raster: red, format: .png))
    let imageURL = URL(string: "data:image/png;base64," + png.base64EncodedString())!
    let factories = PluginFactories(
        transports: [
            PluginFactory<any ImageTransport>(name: "memory") { settings in
                MemoryTransport(chunkSize: try settings.int("chunkSize", default: 16384, in: 1...(1 << 24)))
            }
        ],
        codecs: [PluginFactory<Codec>(name: "pam") { _ in Codec(decoder: PAMCodec(), encoder: PAMCodec()) }],
        imageCaches: [
            PluginFactory<any ImageCache>(name: "dictionary") { settings in
                DictionaryImageCache(countLimit: try settings.int("countLimit", default: 100, in: 1...1_000_000))
            }
        ],
        processors: [
            PluginFactory<any ImageProcessor>(name: "grayscale") { settings in
                GrayscaleProcessor(intensity: try settings.double("intensity", default: 1, in: 0...1))
            }
        ],
        interceptors: [
            PluginFactory<any ImageInterceptor>(name: "fallback") { settings in
                let grey = UInt8(try settings.int("grey", default: 200, in: 0...255))
                let placeholder = try Raster(width: 1, height: 1, fill: RGBA(grey, grey, grey))
                return FallbackInterceptor(placeholder: DecodedImage(raster: placeholder, format: .png))
            }
        ])
    let loader = try ImageLoader(contentsOf: configurationFile, factories: factories)
    let thumbnail = ImageRequest(url: imageURL, processors: try loader.processors(named: "thumbnail"))
    let response = try await loader.image(for: thumbnail)
    #expect(response.image.width == 200 && response.image.height == 150)
    let pixel = response.image.raster[10, 10]
    #expect(pixel.r == pixel.g && pixel.g == pixel.b)
    #expect(loader.imageCache is DictionaryImageCache)
    #expect(loader.dataCache is DiskDataCache)
    #expect(loader.registry.interceptors.first is FallbackInterceptor)
}

// MARK: Running a contract

/// The stand-ins the contract samples name: a decoder and its fixtures.
typealias MyDecoder = PNGCodec
let myFixtures = try! BuiltinFixtures.make(PNGCodec(), tolerance: 0, alpha: true)

@Test func myDecoderKeepsItsContract() async throws {
    try await ImageDecoderContract(makeDecoder: { MyDecoder() }, fixtures: myFixtures).verify()
}

final class PluginsDocXCTestSample: XCTestCase {
    func testMyDecoderKeepsItsContract() async throws {
        try await ImageDecoderContract(makeDecoder: { MyDecoder() }, fixtures: myFixtures).verify()
    }
}

// MARK: An interceptor

/// The stand-in the contract sample names: the placeholder the fallback answers with.
let placeholder = DecodedImage(raster: try! Raster(width: 2, height: 2, fill: RGBA(200, 200, 200)), format: .png)

@Test func theFallbackAnswersAMissingSourceWithItsPlaceholder() async throws {
    let contract = ImageInterceptorContract(
        makeInterceptor: { FallbackInterceptor(placeholder: placeholder) },
        downstream: { _ in .status(404) }, expecting: .image(origin: .interceptor))
    try await contract.verify()
}

// MARK: Testing your plugin with a real server

let staticFileServer = """
    import functools, http.server, sys
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    class Server(http.server.ThreadingHTTPServer):
        request_queue_size = 128
    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
    print(server.server_port, flush=True)
    server.serve_forever()
    """

@Test func curlTransportKeepsItsContractAgainstARealServer() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let server = try ChildProcess("/usr/bin/python3", ["-u", "-c", staticFileServer, folder.path])
    let port = try await server.readLine()
    let contract = ImageTransportContract(
        transport: CurlTransport(),
        serve: { data in
            let name = UUID().uuidString
            try data.write(to: folder.appendingPathComponent(name))
            return URL(string: "http://127.0.0.1:\(port)/\(name)")!
        },
        missingSource: URL(string: "http://127.0.0.1:\(port)/missing")!, cancellationPayloadSize: 1 << 20)
    try await contract.verify()
    await server.stop()
}
