import Foundation

/// `q=auto` and `f=best` in the one render path: the processed image's output chosen by a quality search
/// (`QualitySearch`) or among formats (`BestFormat`), on the compute threads, bounded by the output's deadline and
/// stopped when the caller goes, with the encoders' memory and the measuring reserved before the work.
extension ImageLoader {
    /// A choice and the encodes it made, by format.
    struct ChosenOutput: Sendable {
        var choice: QualityChoice
        var encodes: [ImageFormat: Int]
    }

    /// The output of `image` in `format` at the quality searched, or the smallest among `.best`'s formats.
    func choose(_ image: DecodedImage, output: RenderOutput, format: ImageFormat, encoderReserved: Bool)
        async throws -> ChosenOutput
    {
        var image = image
        var options = output.options
        if output.autoQuality == nil, let quality = output.qualities[format] { options.quality = quality }
        options.allFrames = options.allFrames && image.frames.count > 1
        let best: Bool
        let formats: [ImageFormat]
        if case .best(let among) = output.format {
            best = true
            if image.hasAlpha {
                // An alpha channel whose pixels are all opaque has no alpha to keep: JPEG is a candidate (as
                // thumbor's autojpg looks at the pixels). One pass over the processed frames, on the compute threads.
                let frames = image.frames
                image.hasAlpha = try await StopFlag.computing { _ in frames.contains { $0.raster.hasTransparency } }
            }
            formats = BestFormat.formats(accepting: among.contains, hasAlpha: image.hasAlpha, order: among)
        } else {
            (best, formats) = (false, [format])
        }
        let counter = EncodeCounter()
        var candidates: [BestFormat.Candidate] = []
        for format in formats {
            guard let encoder = registry.encoder(for: format), let decoder = registry.decoder(for: format) else {
                if best { continue }
                throw ImagoError(.encodingFailed(format: format), "no encoder and decoder for \(format)")
            }
            candidates.append(
                BestFormat.Candidate(encoder: CountingEncoder(encoder, counter: counter), decoder: decoder))
        }
        let size = PixelSize(width: image.width, height: image.height)
        let frames = options.allFrames && candidates.contains { $0.encoder.supportsAnimation } ? image.frames.count : 1
        let reservation =
            encoderReserved
            ? nil
            : try pixelBudget.reserveNow(
                bytes: Self.encodeMemory(candidates.map(\.encoder), size: size, frames: frames, output: output),
                refusingOverCapacityFor: Self.encoding(format, size, frames: frames) + " and the quality measure")
        defer { reservation?.release() }
        let (frozen, settings, deadline, encoders) = (image, options, output.deadline, candidates)
        let auto = output.autoQuality
        do {
            let choice = try await StopFlag.computing { stop in
                try stop.check()
                let limits = SearchLimits(deadline: deadline, isCancelled: { stop.isRaised })
                if !best, let auto, let only = encoders.first {
                    let search = QualitySearch(encoder: only.encoder, decoder: only.decoder, settings: auto)
                    return try search.run(frozen, options: settings, limits: limits)
                }
                let quality: BestFormat.Quality = auto.map { .auto($0) } ?? .fixed(settings.quality)
                return try BestFormat(candidates: encoders).choose(
                    frozen, quality: quality, options: settings, limits: limits
                ).choice
            }
            return ChosenOutput(choice: choice, encodes: counter.totals)
        } catch let error as QualityError {
            throw ImagoError(.processingFailed, error.reason, underlying: error)
        } catch is CancellationError {
            throw ImagoError(.cancelled, "cancelled")
        }
    }

    /// The memory an encode of `size` holds at its peak: the largest of `encoders`' own, and for a quality
    /// search or a best-format choice the measuring too (the output decoded, and the image flattened for JPEG).
    static func encodeMemory(_ encoders: [any ImageEncoder], size: PixelSize, frames: Int, output: RenderOutput)
        -> Int
    {
        let encoder = encoders.map { $0.memoryEstimate(for: size, frames: frames, options: output.options) }.max() ?? 0
        return encoder + (output.choosesQuality ? 2 * 4 * size.width * size.height : 0)
    }
}

extension RenderOutput {
    /// Whether the quality or the format is chosen by the render (`autoQuality`, `.best`).
    public var choosesQuality: Bool {
        if autoQuality != nil { return true }
        if case .best = format { return true }
        return false
    }
}
