import Foundation
import Imago

/// The answers that depend on the source's format, known from its bytes: `raw` and `skp` (the source's own bytes,
/// unprocessed) and `autojpg` (a PNG source's output as JPEG when its pixels are opaque). Within step 11 of the chain:
/// after the signature, the expiry, the source policy, the result tiers and admission, within the deadline.
extension ImageServer {
    /// Whether `job`'s answer depends on its source's format, known once its bytes are: `raw`, `skp`, and
    /// `autojpg` when no format is asked.
    static func dependsOnSourceFormat(_ job: RenderJob) -> Bool {
        job.kind == .image
            && (job.options.raw || !job.options.skipProcessing.isEmpty
                || (job.options.autoJPEG && job.keepsSourceFormat))
    }

    /// The source fetched as every source is (`allowedSources`, the address checks, `maxSourceBytes`, the data
    /// cache), then answered as it is when `raw` asks, or when `skp` lists its format and no other format is asked
    /// (`f`, `f=auto`'s choice, `f=best`), as imgproxy's `skip_processing`; else rendered from those bytes. The
    /// Content-Type is the format its bytes are sniffed as: a source no decoder recognises is a 415 (imgproxy's
    /// `raw` answers anything; an image host answering HTML or scripts from its origin is a risk). `skp` checks
    /// the source's size from its header against the limits (`msr`, `mafr`) first; `raw` only its bytes.
    func renderFromSource(_ job: RenderJob) async throws -> RenderedImage {
        let source = try await loader.sourceBytes(for: ImageRequest(url: job.url))
        let data = source.data
        let limits = job.options.limits.applied(to: loader.settings.limits)
        let registry = loader.registry
        let decoder = try registry.decoder(for: data, limits: limits)
        let format = decoder.format
        let unprocessed =
            job.options.raw
            || (job.options.skipProcessing.contains(format) && job.bestFormats == nil
                && (job.format == nil || job.format == format))
        guard unprocessed else {
            var rendered = job
            let autoJPEG = job.options.autoJPEG && format == .png && job.keepsSourceFormat
            // autojpg: JPEG for an opaque output (its pixels), else PNG (`f=best`'s rule among the two, one encode).
            if autoJPEG { rendered.bestFormats = [.jpeg, .png] }
            var image = try await renderImage(rendered, sourceData: data)
            // The bytes were fetched here: where they came from, and their Last-Modified, are the source's.
            (image.sourceOrigin, image.lastModified) = (source.origin.rawValue, source.lastModified)
            if autoJPEG, job.autoQuality == nil { image.quality = nil }
            return image
        }
        if !job.options.raw, let sized = decoder as? any DecodedSizeEstimating {
            let geometry = try await WorkExecutor.compute.run {
                sized.decodedGeometry(data, options: DecodeOptions(limits: limits, frames: .first))
            }
            if let size = geometry?.size { try limits.check(width: size.width, height: size.height, format: format) }
        }
        var image = RenderedImage(
            body: data, contentType: OutputFormat.contentType(of: format), etag: RenderedImage.etag(for: data),
            sourceOrigin: source.origin.rawValue, lastModified: source.lastModified)
        image.isSource = true
        return image
    }
}
