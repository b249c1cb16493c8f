import Foundation
import Imago

/// The images a URL names besides its source (thumbor's `watermark(URL,…)` and `frame(URL)`, Imago's
/// `wm=…:src:…` and `ninepatch=…`): loaded for the render by the loader, as a source is. The job checked their
/// URLs against the source policy (403); the loader checks every redirect hop and address, refuses bytes over
/// `maxSourceBytes` before reading them and pixels over `maxSourcePixels` before decoding, and reserves each decode
/// in the pixel budget; the render then reserves the pixels its processors hold (`HeldMemoryEstimating`). One that
/// cannot be used is a 400 naming its option, as thumbor answers, never the fallback image.
extension ImageServer {
    /// The images `job`'s options name, upright (the first frame), by URL.
    func images(for job: RenderJob) async throws -> [String: ProcessingOptions.WatermarkImage] {
        var images: [String: ProcessingOptions.WatermarkImage] = [:]
        for (key, source) in job.options.imageSources where images[source] == nil {
            images[source] = try await image(source, for: OptionError.shown(job.spelling(of: key)))
        }
        return images
    }

    /// The image at `source`, for `option`.
    private func image(_ source: String, for option: String) async throws -> ProcessingOptions.WatermarkImage {
        do {
            var decode = DecodeOptions.default
            decode.frames = .first
            let request = ImageRequest(url: try ImagePath.sourceURL(source), decodeOptions: decode)
            return ProcessingOptions.WatermarkImage(
                raster: try await loader.image(for: request).image.raster, id: source)
        } catch {
            let failure = ServeFailure(answering: error)
            // A refused address stays a 403; cancellation and the request's deadline keep their own answers.
            if failure.status == 403 || Task.isCancelled { throw error }
            throw OptionError(
                .conflicting, item: option, message: "option \"\(option)\": its image cannot be used: \(failure.reason)"
            )
        }
    }
}
