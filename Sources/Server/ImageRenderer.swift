import Foundation
import Imago

/// Turns a source and options into encoded bytes: the loader fetches (caches, retries, coalesced fetches), decodes
/// (reduced-scale where the target allows) and resizes; the encoder of the output format writes the result.
struct ImageRenderer: Sendable {
    let loader: ImageLoader
    let maxOutputSide: Int

    /// Renders `url` with `options` into `format` (`nil`: the source's format when an encoder writes it, else JPEG).
    func render(_ url: URL, options: ImageOptions, format: ImageFormat?) async throws -> RenderedImage {
        let request = self.request(for: url, options: options, format: format)
        let response = try await loader.image(for: request)
        var image = response.image
        if let index = options.frame {
            guard index < image.frames.count else {
                throw ServeFailure(400, "option frame=\(index): the source has \(image.frames.count) frame(s)")
            }
            image.frames = [image.frames[index]]
        }
        let output = format ?? defaultFormat(for: image.format)
        guard let encoder = loader.registry.encoder(for: output) else {
            throw ServeFailure(500, "no encoder writes \(output)")
        }
        let (frozen, settings) = (image, Self.encodeOptions(for: options))
        let body = try await BlockingWork.run { try encoder.encode(frozen, options: settings) }
        let etag = "\"" + SHA256.hex(body).prefix(32) + "\""
        return RenderedImage(
            body: body, contentType: OutputFormat.contentType(of: output), etag: etag,
            sourceOrigin: response.origin.rawValue)
    }

    /// What the encoder is asked for (the background of formats without alpha is the default, white). Part of
    /// the result cache's key, so outputs encoded differently are never confused.
    static func encodeOptions(for options: ImageOptions) -> EncodeOptions {
        var encodeOptions = EncodeOptions(allFrames: options.frame == nil)
        if let quality = options.quality { encodeOptions.quality = quality }
        return encodeOptions
    }

    /// The loader request: the resize as a processor, and a decode target so JPEG and WebP can decode reduced.
    func request(for url: URL, options: ImageOptions, format: ImageFormat?) -> ImageRequest {
        var processors: [any ImageProcessor] = []
        var decode = DecodeOptions()
        let animatedOutput = format.map { loader.registry.encoder(for: $0)?.supportsAnimation ?? false } ?? true
        decode.frames = options.frame != nil || animatedOutput ? .all : .first
        if options.width != nil || options.height != nil {
            let width = options.outputWidth ?? maxOutputSide
            let height = options.outputHeight ?? maxOutputSide
            let both = options.width != nil && options.height != nil
            let limits = loader.settings.limits
            switch both ? options.fit : .contain {
            case .contain, .cover:
                let mode: ContentMode = options.fit == .cover && both ? .fill : .fit
                var resize = ResizeProcessor(width: width, height: height, mode: mode, upscale: options.enlarge)
                resize.limits = limits
                processors.append(resize)
            case .fill:
                var stretch = StretchProcessor(width: width, height: height, upscale: options.enlarge)
                stretch.limits = limits
                processors.append(stretch)
            }
            // The decoder picks its reduction from the stored size, before the EXIF orientation turns the image;
            // a square target both sides of the reduced image must cover is right for every orientation.
            let side = max(options.outputWidth ?? 0, options.outputHeight ?? 0)
            decode.targetSize = PixelSize(width: side, height: side)
            decode.contentMode = .fill
        }
        return ImageRequest(url: url, processors: processors, decodeOptions: decode)
    }

    /// The source's own format when an encoder writes it and `f` could name it, else JPEG.
    private func defaultFormat(for source: ImageFormat) -> ImageFormat {
        OutputFormat.names.contains(source.rawValue) && loader.registry.encoder(for: source) != nil ? source : .jpeg
    }
}
