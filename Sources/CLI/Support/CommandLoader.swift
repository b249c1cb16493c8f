import Foundation
import Imago

/// The loader the one-shot commands (`info`, `convert`, `show`, `sheet`, `bench decode`) read sources through:
/// the standard transports and codecs and the video decoder (posters; it loads FFmpeg only for a video), no caches,
/// the request headers given with `--header`.
struct CommandLoader: Sendable {
    let loader: ImageLoader
    let headers: [String: String]

    init(headers: [String: String] = [:]) {
        var builder = PluginRegistry.Builder(.standard())
        builder.imageCache = nil
        builder.dataCache = nil
        builder.add(VideoCodec())
        let registry = builder.build()
        loader = ImageLoader(registry: registry)
        self.headers = headers
    }

    /// The registry of the loader, for the encoders.
    var registry: PluginRegistry { loader.registry }

    /// The request for `source` with the headers; errors name the source as the user wrote it.
    func request(_ source: String) throws(ImagoError) -> ImageRequest {
        do {
            return ImageRequest(url: try ImageRequest.url(from: source), cachePolicy: .none, headers: headers)
        } catch {
            throw Self.named(error, source)
        }
    }

    /// Loads `request` (made by `request(_:)`) through the loader, decoding `bytes` when given (read for the same
    /// source by `sourceBytes`) instead of reading the source again; warns on standard error about caches that
    /// failed on the way.
    func load(_ request: ImageRequest, source: String, from bytes: ImageLoader.SourceBytes? = nil)
        async throws(ImagoError) -> ImageResponse
    {
        let watch = CacheFailureWatch()
        do {
            let response =
                if let bytes {
                    try await loader.image(for: request, from: bytes, listener: watch)
                } else {
                    try await loader.image(for: request, listener: watch)
                }
            // The cache write runs beside the decode; its failure is known (and the command may exit) after it.
            await loader.waitForPendingWrites()
            watch.warnOnce(command: "imago")
            return response
        } catch {
            await loader.waitForPendingWrites()
            throw Self.named(error, source)
        }
    }

    /// Renders `request` (`ImageLoader.render`): an animation that can stream is converted frame by frame, anything
    /// else decoded, processed and encoded once; warns as `load` does, and about a truncated source (once each).
    func render(_ request: RenderRequest, source: String) async throws(ImagoError) -> RenderResult {
        let watch = CacheFailureWatch()
        do {
            let result = try await loader.render(request, listener: watch)
            await loader.waitForPendingWrites()
            watch.warnOnce(command: "imago")
            for warning in result.warnings { Console.printError("imago: warning: \(source): \(warning)") }
            return result
        } catch {
            await loader.waitForPendingWrites()
            throw Self.named(error, source)
        }
    }

    /// Loads `source` as `configure` shapes its request, decoding `bytes` when given (see `load`).
    func image(
        _ source: String, from bytes: ImageLoader.SourceBytes? = nil,
        _ configure: (inout ImageRequest) -> Void = { _ in }
    ) async throws(ImagoError) -> ImageResponse {
        var request = try request(source)
        configure(&request)
        return try await load(request, source: source, from: bytes)
    }

    /// The bytes of `source`, as the loader fetches them: to look at, then decode with `image(_:from:)` without a
    /// second read.
    func sourceBytes(_ source: String) async throws(ImagoError) -> ImageLoader.SourceBytes {
        do {
            let bytes = try await loader.sourceBytes(for: try request(source))
            await loader.waitForPendingWrites()
            return bytes
        } catch {
            throw Self.named(error, source)
        }
    }

    /// The bytes of `source`, as the loader fetches them.
    func data(_ source: String) async throws(ImagoError) -> Data {
        try await sourceBytes(source).data
    }

    /// The error as a toolkit error naming `source` as the user wrote it.
    static func named(_ error: any Error, _ source: String) -> ImagoError {
        var wrapped = ImagoError.wrapping(error)
        wrapped.source = source
        return wrapped
    }
}
