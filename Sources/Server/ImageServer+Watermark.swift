import Foundation
import Imago

/// A watermark whose image the URL names (thumbor's `watermark(URL,…)`, `wm=…:src:…`): loaded for the render by
/// the loader, as a source is. The job checked its URL against the source policy (403); the loader checks every
/// redirect hop and address, refuses bytes over `maxSourceBytes` before reading them and pixels over
/// `maxSourcePixels` before decoding, and reserves the decode in the pixel budget. A mark that cannot be used
/// is a 400 naming the filter, as thumbor answers, never the fallback image.
extension ImageServer {
    /// The image `job`'s watermark names, upright (its first frame), or nil when it names none.
    func watermark(for job: RenderJob) async throws -> ProcessingOptions.WatermarkImage? {
        guard let source = job.options.watermark?.source else { return nil }
        let option = OptionError.shown(job.spelling(of: "wm"))
        do {
            let url = try ImagePath.sourceURL(source)
            var decode = DecodeOptions.default
            decode.frames = .first
            let response = try await loader.image(for: ImageRequest(url: url, decodeOptions: decode))
            return ProcessingOptions.WatermarkImage(raster: response.image.raster, id: source)
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
