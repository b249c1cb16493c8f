import Foundation
import Imago
import Synchronization

/// The operator's own sources, named in the configuration (`serve.watermark`, `serve.fallbackImage`): loaded with
/// the server's plugins but outside the source policy, which confines what URLs ask for, not what the operator set.
/// The watermark is decoded once and kept.
final class TrustedSources: Sendable {
    let loader: ImageLoader
    private let watermarks = Mutex<[String: ProcessingOptions.WatermarkImage]>([:])

    init(loader: ImageLoader) {
        self.loader = ImageLoader(registry: loader.registry, settings: loader.settings)
    }

    /// A URL (`https://…`, `file:///…`) or a file path.
    static func url(_ source: String) throws -> URL {
        if source.hasPrefix("/") { return URL(fileURLWithPath: source) }
        guard let url = URL(string: source), url.scheme != nil else {
            throw RequestError(.misconfigured, "the configured source \"\(source)\" is not a URL or an absolute path")
        }
        return url
    }

    /// The watermark image at `source`, upright; a failure to load it is a 500 (the configuration is at fault).
    func watermark(_ source: String) async throws -> ProcessingOptions.WatermarkImage {
        if let cached = watermarks.withLock({ $0[source] }) { return cached }
        let image: DecodedImage
        do {
            image = try await loader.image(for: ImageRequest(url: try Self.url(source))).image
        } catch let error as RequestError {
            throw error
        } catch {
            throw RequestError(.misconfigured, "the watermark (serve.watermark) cannot be loaded: \(error)")
        }
        let mark = ProcessingOptions.WatermarkImage(raster: image.raster, id: source)
        watermarks.withLock { $0[source] = mark }
        return mark
    }
}
