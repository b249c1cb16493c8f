import Foundation
import Imago
import ImagoContracts

// An app written against Imago 0.1.0 (82d521b), unchanged since: its 19 set-ups, each checked as it runs.
// Scripts/check-compatibility.sh builds it against a checkout and runs it; it prints what failed and exits 1.

var failures: [String] = []
@MainActor func check(_ condition: Bool, _ what: String) {
    if !condition { failures.append(what) }
    print(condition ? "ok  " : "FAIL", what)
}

// 1–3, 7–11: the standard registry with the app's plugins, then 4–5: its caches.
let registry = PluginRegistry.standard()
registry.registerGallery()
let imageCache = GalleryImageCache()
let dataCache = GalleryDataCache()
registry.imageCache = imageCache
registry.dataCache = dataCache

// 12–13: a loader with settings and the app's listeners.
let metrics = GalleryMetrics()
let log = ImageLoadEventClosure { event in
    if case .failed(let error) = event.kind { print("load failed:", error) }
}
let loader = ImageLoader(
    registry: registry, settings: LoaderSettings(maxConcurrentLoads: 4, maxConcurrentDecodes: 1),
    eventListeners: [metrics, log])

// 1, 3: a picture through the app's transport and codec.
let sunset = ImageRequest(url: URL(string: "gallery://sunset")!)
let first = try await loader.image(for: sunset)
check(first.image.width == 8 && first.image.height == 6 && first.origin == .network, "1, 3. own transport and codec")

// 4: the memory cache answers the same request.
let again = try await loader.image(for: sunset)
check(again.origin == .memory && imageCache.hits >= 1, "4. own memory cache")

// 5: the data cache answers when the memory cache is skipped.
await loader.waitForPendingWrites()
let fromDisk = try await loader.image(for: ImageRequest(url: sunset.url, cachePolicy: [.readDisk, .writeDisk]))
check(fromDisk.origin == .disk && dataCache.count == 1, "5. own data cache, read as disk")

// 6: the app's processor, and a crop, in a request.
let crop = CropProcessor(x: 1, y: 1, width: 4, height: 3)
let negative = try await loader.image(
    for: ImageRequest(url: URL(string: "gallery://sea")!, processors: [crop, InvertProcessor()]))
check(
    negative.image.width == crop.width && negative.image.raster[0, 0] == RGBA(235, 165, 55),
    "6. own processor after a crop")

// 2: the allow-list refuses other hosts before anything is sent.
do {
    _ = try await loader.image(for: ImageRequest(url: URL(string: "https://tracker.example.net/pixel.png")!))
    check(false, "2. allow-list")
} catch let error as ImagoError {
    check(error.kind == .addressRefused, "2. allow-list refuses a host it does not trust")
}

// 10: the preset.
let thumbnail = try await loader.image(
    for: ImageRequest(
        url: URL(string: "gallery://night")!, processors: try loader.processors(named: "negative-thumbnail")))
check(thumbnail.image.width == 4 && thumbnail.image.raster[0, 0] == RGBA(245, 245, 225), "10. preset")

// 15: what the registry holds.
check(
    registry.transportFactoryNames.contains("gallery") && registry.codecFactoryNames.contains("glry"),
    "15. factory names")
check(
    registry.processorFactoryNames.contains("invert") && registry.presetNames == ["negative-thumbnail"], "15. presets")
let (cacheName, _) = try registry.makeDataCache(.string("disk"), path: "cache")
check(cacheName == "disk", "15. a data cache from a spec")

// 14: a loader from a configuration file that names the app's plugins.
let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID()).json")
try Data(
    """
    {"transports": ["gallery"], "codecs": ["png", "glry"], "dataCache": null,
     "processing": {"negative": ["invert"]}}
    """.utf8
).write(to: configuration)
defer { try? FileManager.default.removeItem(at: configuration) }
let factories = PluginFactories(
    transports: [PluginFactory<any ImageTransport>(name: "gallery") { _ in GalleryTransport(pictures: pictures) }],
    codecs: [PluginFactory<Codec>(name: "glry") { _ in Codec(decoder: GLRYCodec(), encoder: GLRYCodec()) }],
    processors: [PluginFactory<any ImageProcessor>(name: "invert") { _ in InvertProcessor() }])
let configured = try ImageLoader(contentsOf: configuration, factories: factories)
let configuredNegative = try await configured.image(
    for: ImageRequest(url: URL(string: "gallery://sea")!, processors: try configured.processors(named: "negative")))
check(configuredNegative.image.raster[0, 0] == RGBA(235, 165, 55), "14. a configuration naming the app's plugins")

// 16: previews, then the final image.
var responses: [ImageResponse] = []
let stream: AsyncThrowingStream<ImageResponse, any Error> = loader.responses(
    for: ImageRequest(url: URL(string: "gallery://night")!, cachePolicy: .reload), previews: PreviewPolicy())
for try await response in stream { responses.append(response) }
check(responses.last?.isPreview == false && responses.last?.image.width == 40, "16. previews then the final image")

// 17: the model a view observes.
let model = ImageModel(loader: loader, request: ImageRequest(url: URL(string: "gallery://night")!))
var transitions: [String] = []
model.hooks.append(
    ImagePhaseHook("no fade for small pictures") { change, transaction in
        if let image = change.to.image, image.width < 64 { transaction.transition = .none }
    })
model.onPhaseChange { phase, transaction in
    switch phase {
    case .empty: transitions.append("empty")
    case .success(let response):
        transitions.append("success \(response.image.width) \(transaction.effectiveTransition)")
    case .failure(let error): transitions.append("failure \(error)")
    }
}
model.load()
for _ in 0..<2000 where model.phase.image == nil { try await Task.sleep(nanoseconds: 2_000_000) }
check(model.phase.image?.width == 40 && transitions == ["success 40 none"], "17. ImageModel, hooks and phases")

// 18: origins the app stored as JSON in 0.1.0 still read back.
let stored = Data(#"[{"name":"sunset","origin":"disk"},{"name":"sea","origin":"network"}]"#.utf8)
let records = try JSONDecoder().decode([LoadRecord].self, from: stored)
check(
    records == [LoadRecord(name: "sunset", origin: .disk), LoadRecord(name: "sea", origin: .network)],
    "18. stored origins")
check(
    metrics.origins.contains("disk") && metrics.log.contains { $0.hasPrefix("disk hit") } && metrics.fetches >= 3,
    "13. listener saw the disk hit and the fetches")

// 19: the app's codec keeps the decoder contract.
let fixture = DecoderFixture(
    name: "5x5 sea", data: pictures["sea"]!, width: 5, height: 5,
    pixels: .rgba(Array([[UInt8]](repeating: [20, 90, 200, 255], count: 25).joined())))
let report = await ImageDecoderContract(makeDecoder: { GLRYCodec() }, fixtures: [fixture]).run()
check(report.passed, "19. own codec keeps its contract\(report.passed ? "" : ": \(report)")")

print(failures.isEmpty ? "gallery: all set-ups work" : "gallery: \(failures.count) set-ups failed: \(failures)")
exit(failures.isEmpty ? 0 : 1)
