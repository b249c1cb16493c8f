import Foundation
import Imago

/// Turns a source and options into encoded bytes: the options become processors (in the fixed order), the loader
/// fetches (caches, retries, coalesced fetches), decodes (reduced-scale where the target allows) and processes;
/// the encoder of the output format writes the result, lowering the quality for `maxb`.
struct ImageRenderer: Sendable {
    let loader: ImageLoader
    let settings: ServeSettings
    /// The operator's own sources (watermark, fallback image), which the source policy does not confine.
    let trusted: TrustedSources

    var maxOutputSide: Int { settings.maxOutputSide }

    /// Renders `job`'s source with its options into its format (`nil`: the source's format when an encoder writes
    /// it, else JPEG).
    func render(_ job: ImageServer.ImageJob) async throws -> RenderedImage {
        let (options, format) = (job.options, job.format)
        let processors = try await self.processors(for: job)
        let request = self.request(for: job.url, options: options, format: format, processors: processors)
        // An animation into an animated format is converted frame by frame (AnimationTranscoder), in bounded memory.
        let response: ImageResponse
        if let format, options.frame == nil, options.maxBytes == nil {
            switch try await AnimationTranscoder(loader: loader).load(
                request, to: format, options: encodeOptions(for: options, format: format))
            {
            case .streamed(let output, let source):
                return RenderedImage(
                    body: output.data, contentType: OutputFormat.contentType(of: format),
                    etag: RenderedImage.etag(for: output.data), sourceOrigin: source.origin.rawValue,
                    lastModified: source.lastModified)
            case .decoded(let decoded): response = decoded
            }
        } else {
            response = try await loader.image(for: request)
        }
        return try await encode(response, options: options, format: format, lastModified: response.sourceLastModified)
    }

    /// The fallback image processed with the request's options, served with `fallbackStatus` and a short max-age.
    func renderFallback(_ source: String, job: ImageServer.ImageJob) async throws -> RenderedImage {
        let (options, format) = (job.options, job.format)
        let processors = try await self.processors(for: job)
        let url = try TrustedSources.url(source)
        let request = self.request(for: url, options: options, format: format, processors: processors)
        let response = try await trusted.loader.image(for: request)
        var image = try await encode(response, options: options, format: format, lastModified: nil)
        image.status = settings.fallbackStatus
        image.maxAge = settings.fallbackMaxAge
        return image
    }

    /// The processors of `job`'s options, with the configured watermark when `wm` asks for one; built before any
    /// work. A failure names the option as the user wrote it.
    func processors(for job: ImageServer.ImageJob) async throws -> [any ImageProcessor] {
        var watermark: ProcessingOptions.WatermarkImage?
        if job.options.watermark != nil, let source = settings.watermark {
            watermark = try await trusted.watermark(source)
        }
        return try job.options.processors(
            limits: loader.settings.limits, maxOutputSide: maxOutputSide, watermark: watermark,
            spelling: { [spellings = job.spellings] in spellings[$0] ?? $0 })
    }

    private func encode(
        _ response: ImageResponse, options: ImageOptions, format: ImageFormat?, lastModified: String?
    ) async throws -> RenderedImage {
        var image = response.image
        if let index = options.frame {
            guard index < image.frames.count else {
                throw OptionError(
                    .conflicting, item: "frame=\(index)",
                    message: "option frame=\(index): the source has \(image.frames.count) frame(s)")
            }
            image.frames = [image.frames[index]]
        }
        let output = format ?? defaultFormat(for: image.format)
        guard let encoder = loader.registry.encoder(for: output) else {
            throw RequestError(.misconfigured, "no encoder writes \(output)")
        }
        let (frozen, encoding) = (image, encodeOptions(for: options, format: output))
        let body = try await BlockingWork.run {
            try Self.encode(frozen, with: encoder, options: encoding, format: output, maxBytes: options.maxBytes)
        }
        let etag = RenderedImage.etag(for: body)
        return RenderedImage(
            body: body, contentType: OutputFormat.contentType(of: output), etag: etag,
            sourceOrigin: response.origin.rawValue, lastModified: lastModified)
    }

    /// `ProcessingOptions.encode` (its `maxb` failure is a 422).
    static func encode(
        _ image: DecodedImage, with encoder: any ImageEncoder, options: EncodeOptions, format: ImageFormat,
        maxBytes: Int?
    ) throws -> Data {
        try ProcessingOptions.encode(image, with: encoder, options: options, format: format, maxBytes: maxBytes)
    }

    /// What the encoder is asked for: the quality of the format (`q`, else `serve.quality`), and `bg` for formats
    /// without alpha. Part of the result cache's key, so outputs encoded differently are never confused.
    func encodeOptions(for options: ImageOptions, format: ImageFormat?) -> EncodeOptions {
        var encodeOptions = EncodeOptions(allFrames: options.frame == nil, background: options.flattenBackground)
        encodeOptions.quality = format.map { settings.quality(for: $0, options: options) } ?? options.quality ?? 85
        return encodeOptions
    }

    /// The loader request: the processors, and a decode target so JPEG and WebP can decode reduced.
    func request(
        for url: URL, options: ImageOptions, format: ImageFormat?, processors: [any ImageProcessor]
    ) -> ImageRequest {
        var decode = DecodeOptions()
        let animatedOutput = format.map { loader.registry.encoder(for: $0)?.supportsAnimation ?? false } ?? true
        decode.frames = options.frame != nil || animatedOutput ? .all : .first
        if !options.strip { decode.colorProfiles = .keep }
        if options.allowsReducedDecode {
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
