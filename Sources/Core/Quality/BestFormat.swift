import Foundation

/// `f=best`: the smallest output among candidate formats, each at `q=auto` (or at a given quality).
///
/// Candidates are tried in their order (put the likely winner first: AVIF, WebP, JPEG XL, then JPEG or PNG, as
/// `formats(accepting:hasAlpha:)` lists them). The first always runs, so there is an answer; a later one is
/// skipped without an encode when one encode of its format is expected to take longer than the time left before
/// the deadline (`QualityModel.encodeMillisecondsPerMegapixel`), and its search is given up as soon as it cannot
/// beat the smallest output so far (an output that misses the target is already as large, or the first encode
/// predicts a final size over it). A candidate whose encoder fails is reported and passed over, unless all fail.
/// CPU-bound: call it off the cooperative pool.
public struct BestFormat: Sendable {
    /// One candidate format: its encoder, a decoder to measure the output, and its model.
    public struct Candidate: Sendable {
        /// The encoder.
        public var encoder: any ImageEncoder
        /// A decoder of the same format.
        public var decoder: any ImageDecoder
        /// The format's model; by default the calibrated one.
        public var model: QualityModel

        /// Creates a candidate.
        public init(encoder: any ImageEncoder, decoder: any ImageDecoder, model: QualityModel? = nil) {
            self.encoder = encoder
            self.decoder = decoder
            self.model = model ?? .standard(for: encoder.format)
        }

        /// The format.
        public var format: ImageFormat { encoder.format }
    }

    /// The quality each candidate is encoded at.
    public enum Quality: Sendable, Hashable {
        /// The lowest quality within the settings' target, searched per format.
        case auto(AutoQuality)
        /// One quality for every format (formats without one ignore it).
        case fixed(Int)
    }

    /// What became of one candidate.
    public enum Report: Sendable {
        /// Encoded: its decision and size.
        case encoded(QualityDecision, bytes: Int, encodes: Int)
        /// Not tried: one encode was expected to take `expectedSeconds`, more than the `secondsLeft`.
        case tooSlow(ImageFormat, expectedSeconds: Double, secondsLeft: Double)
        /// Given up after `encodes` encodes: it could not beat the smallest output so far.
        case cannotWin(ImageFormat, encodes: Int)
        /// Its encoder or decoder failed.
        case failed(ImageFormat, reason: String)
    }

    /// The smallest output and what became of every candidate.
    public struct Outcome: Sendable {
        /// The chosen output; its `encodes` counts every candidate's.
        public var choice: QualityChoice
        /// One report per candidate, in their order.
        public var reports: [Report]
    }

    /// The order candidates are tried in: the formats that are usually smallest first.
    public static let preferredOrder: [ImageFormat] = ["avif", .webp, "jxl", .jpeg, .png]

    /// The candidates.
    public var candidates: [Candidate]

    /// Creates a choice among `candidates`, tried in their order.
    public init(candidates: [Candidate]) {
        self.candidates = candidates
    }

    /// The formats of `order` the client accepts, for an image with or without alpha: JPEG only for opaque
    /// images, PNG only for images with alpha (JPEG would drop it), so the list ends with one of the two.
    public static func formats(
        accepting accepts: (ImageFormat) -> Bool, hasAlpha: Bool, order: [ImageFormat] = preferredOrder
    ) -> [ImageFormat] {
        order.filter { format in
            if format == .jpeg && hasAlpha { return false }
            if format == .png && !hasAlpha { return false }
            return format == .jpeg || format == .png || accepts(format)
        }
    }

    /// The smallest encoding of `image`. Throws `QualityError` for no candidates or invalid settings, before any
    /// encode; `CancellationError` when the caller has gone; the first candidate's error when every one failed.
    public func choose(
        _ image: DecodedImage, quality: Quality = .auto(AutoQuality()), options: EncodeOptions = .default,
        limits: SearchLimits = .none
    ) throws -> Outcome {
        guard !candidates.isEmpty else { throw QualityError(.noCandidates, "f=best needs at least one format") }
        switch quality {
        case .auto(let settings): try settings.validate()
        case .fixed(let value):
            guard (1...100).contains(value) else {
                throw QualityError(.invalidQualityRange, "the quality \(value) must lie within 1...100")
            }
        }
        var best: QualityChoice?
        var reports: [Report] = []
        var encodes = 0
        var firstError: (any Error)?
        for candidate in candidates {
            try limits.checkCancellation()
            if best != nil {
                let expected = candidate.model.expectedEncodeSeconds(pixels: image.width * image.height)
                let left = limits.secondsLeft
                if expected > left {
                    reports.append(.tooSlow(candidate.format, expectedSeconds: expected, secondsLeft: left))
                    continue
                }
            }
            do {
                switch try encode(
                    image, with: candidate, quality: quality, options: options, limits: limits, toBeat: best?.data.count
                ) {
                case .chosen(let choice):
                    encodes += choice.encodes
                    reports.append(.encoded(choice.decision, bytes: choice.data.count, encodes: choice.encodes))
                    if best.map({ choice.data.count < $0.data.count }) ?? true { best = choice }
                case .cannotWin(let made):
                    encodes += made
                    reports.append(.cannotWin(candidate.format, encodes: made))
                }
            } catch let error as CancellationError {
                throw error
            } catch let error as QualityError {
                throw error
            } catch {
                encodes += 1
                firstError = firstError ?? error
                reports.append(.failed(candidate.format, reason: "\(error)"))
            }
        }
        guard var best else { throw firstError ?? QualityError(.noCandidates, "no candidate format could encode") }
        best.encodes = encodes
        return Outcome(choice: best, reports: reports)
    }

    /// One candidate: searched when its format has a quality and `quality` is automatic, else encoded once.
    private func encode(
        _ image: DecodedImage, with candidate: Candidate, quality: Quality, options: EncodeOptions,
        limits: SearchLimits, toBeat bound: Int?
    ) throws -> QualitySearch.Outcome {
        let searchable = candidate.format.hasQualitySetting && !options.lossless
        if case .auto(let settings) = quality, searchable {
            let search = QualitySearch(
                encoder: candidate.encoder, decoder: candidate.decoder, settings: settings, model: candidate.model)
            return try search.search(image, options: options, limits: limits, toBeat: bound)
        }
        var fixed = options
        if case .fixed(let value) = quality { fixed.quality = value }
        let data = try candidate.encoder.encode(image, options: fixed)
        let decision = QualityDecision(format: candidate.format, quality: searchable ? fixed.quality : nil)
        return .chosen(QualityChoice(data: data, decision: decision, encodes: 1))
    }
}
