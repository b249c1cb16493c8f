import Foundation
import Imago
import Synchronization
import Testing

/// Renders of bytes held in memory (`RenderRequest.sourceData`) through a loader of the standard plugins.
struct RenderRig {
    let registry: PluginRegistry
    let loader: ImageLoader

    init(
        limits: DecodeLimits = .default, pixelBudget: Int? = nil, interceptors: [any ImageInterceptor] = [],
        listeners: [any ImageLoadEventListener] = []
    ) {
        var builder = PluginRegistry.Builder(.standard())
        for interceptor in interceptors { builder.add(interceptor) }
        registry = builder.build()
        var settings = LoaderSettings()
        settings.limits = limits
        settings.pixelMemoryBudget = pixelBudget
        loader = ImageLoader(registry: registry, settings: settings, eventListeners: listeners)
    }

    /// Renders `data` into `format` (nil: the source's own) with `processors`.
    func render(
        _ data: Data, to format: ImageFormat?, processors: [any ImageProcessor] = [],
        options: EncodeOptions = EncodeOptions(lossless: true), appliesOrientation: Bool = true,
        kind: RenderOutput.Kind = .encoded
    ) async throws -> RenderResult {
        let image = ImageRequest(
            url: URL(string: "memory:source")!, processors: processors, cachePolicy: .none,
            appliesOrientation: appliesOrientation)
        var output = RenderOutput(
            format: format.map { .format($0) } ?? .source(among: nil, otherwise: .jpeg), options: options)
        if kind == .decoded { output = .decoded() }
        return try await loader.render(RenderRequest(image: image, output: output, sourceData: data))
    }
}

/// A processor that counts the images it is given (each frame, when streamed) and may block until released.
final class CountingProcessor: ImageProcessor, FrameWiseProcessing, @unchecked Sendable {
    private let count = Atomic(0)
    private let gate: DispatchSemaphore?
    /// Images processed so far.
    var processed: Int { count.load(ordering: .relaxed) }
    var identifier: String { "counting" }
    var processesFramesIndependently: Bool { true }

    /// A processor that waits for `release()` before each image when `blocking`.
    init(blocking: Bool = false) { gate = blocking ? DispatchSemaphore(value: 0) : nil }

    func release(_ times: Int = 1) { for _ in 0..<times { gate?.signal() } }

    func process(_ image: DecodedImage) throws -> DecodedImage {
        count.wrappingAdd(1, ordering: .relaxed)
        gate?.wait()
        return image
    }
}

/// Waits (up to a generous minute) until `condition` holds.
func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<12_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
}
