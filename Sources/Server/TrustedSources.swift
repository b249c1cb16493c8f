import Foundation
import Imago
import Synchronization

/// The operator's own sources, named in the configuration (`serve.watermark`, `serve.fallbackImage`): loaded once,
/// when the server starts, with the registry's transports and decoders but outside the source policy (which
/// confines what URLs ask for, not what the operator set: a fallback on a private address is allowed), and kept.
/// One that cannot be loaded, or is not an image, stops the start with an error naming its key; one that hangs
/// is given up after `sourceTimeout`.
struct TrustedSources: Sendable {
    /// The watermark `wm` draws, upright.
    let watermark: ProcessingOptions.WatermarkImage?
    /// The fallback image's encoded bytes, rendered with each failed request's options.
    let fallback: Data?

    /// Loads `settings`' sources with `registry`'s plugins, within `limits`.
    init(settings: ServeSettings, registry: PluginRegistry, limits: DecodeLimits) throws {
        let load = { (key: String, source: String?) throws -> (Data, DecodedImage)? in
            guard let source else { return nil }
            do {
                let data = try Self.fetch(source, registry: registry, settings: settings)
                let image = try registry.decoder(for: data, limits: limits).decode(
                    checked: data, options: DecodeOptions(limits: limits, frames: .first))
                return (data, image)
            } catch {
                throw ImagoError(
                    .invalidConfiguration,
                    "serve.\(key): \"\(source)\" cannot be loaded: \(ImagoError.wrapping(error).reason)")
            }
        }
        watermark = try load("watermark", settings.watermark).map { _, image in
            ProcessingOptions.WatermarkImage(
                raster: try OrientationProcessor().process(image).raster, id: settings.watermark ?? "")
        }
        fallback = try load("fallbackImage", settings.fallbackImage)?.0
    }

    /// A URL (`https://…`, `file:///…`) or a file path.
    static func url(_ source: String) throws -> URL {
        if source.hasPrefix("/") { return URL(fileURLWithPath: source) }
        guard let url = URL(string: source), url.scheme != nil else {
            throw ImagoError(.invalidSource, "not a URL or an absolute path")
        }
        return url
    }

    /// `source`'s bytes through the registry's transport, within `maxSourceBytes` and `sourceTimeout`; the start
    /// waits for them (the fetch runs on the I/O threads, never the caller's).
    static func fetch(_ source: String, registry: PluginRegistry, settings: ServeSettings) throws -> Data {
        let url = try url(source)
        let transport = try registry.transport(serving: url)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(settings.sourceTimeout * 1000)))
        let request = TransportRequest(
            url: url, limits: FetchLimits(maxBytes: settings.maxSourceBytes, deadline: deadline))
        let result = Mutex<Result<Data, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: WorkExecutor.io) {
            let outcome: Result<Data, any Error>
            do {
                outcome = .success(
                    try await Deadline.run(
                        by: deadline, error: { ImagoError(.timedOut, "timed out after \(settings.sourceTimeout) s") }
                    ) { try await transport.fetchAll(request).data })
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }!.get()
    }
}
