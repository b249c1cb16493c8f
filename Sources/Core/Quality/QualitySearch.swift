import Foundation

/// `q=auto`: the lowest quality whose decoded output is within a DSSIM target of the image before encoding.
///
/// The search reads its steps from the format's `QualityModel`. The first quality is the model's estimate for the
/// image's complexity; each encode is decoded and measured (`DSSIM`), which moves the model's curve through the
/// measurement, and the next quality is the lowest the moved curve says will meet the target, between the highest
/// quality known to miss it and the lowest known to meet it (once both are known, the curve is moved by an offset
/// interpolated between the two: a secant step that follows the curve's shape). The search ends when no quality
/// is left between those two, when the model expects no lower quality to meet the target, or after
/// `AutoQuality.maxEncodes` encodes. It answers the lowest quality that met the target, or, when none did (even
/// the maximum misses it), the highest quality tried. An encode that has started runs to its end; before another,
/// the search stops when the caller has gone (`CancellationError`) or when the slowest step so far would not end
/// before the deadline (then it answers the best found so far, marked `stoppedEarly`).
///
/// The image is measured on its first frame, as the output shows it: when the output format has no alpha (JPEG),
/// against the image flattened onto `EncodeOptions.background`. An image under the metric's 11×11 window is
/// encoded once at the maximum quality, unmeasured. CPU-bound: call it off the cooperative pool.
public struct QualitySearch: Sendable {
    /// The encoder of the output format.
    public var encoder: any ImageEncoder
    /// A decoder of the same format, to measure what the encoder made.
    public var decoder: any ImageDecoder
    /// The target and the bounds.
    public var settings: AutoQuality
    /// The format's model; by default the calibrated one (`QualityModel.standard(for:)`).
    public var model: QualityModel

    /// Creates a search of `encoder`'s format.
    public init(
        encoder: any ImageEncoder, decoder: any ImageDecoder, settings: AutoQuality = AutoQuality(),
        model: QualityModel? = nil
    ) {
        self.encoder = encoder
        self.decoder = decoder
        self.settings = settings
        self.model = model ?? .standard(for: encoder.format)
    }

    /// The output format.
    public var format: ImageFormat { encoder.format }

    /// The quality searched for `image`, and its output. `options` are used for every encode but their quality.
    ///
    /// Throws `QualityError` before any encode when the settings are invalid (`invalidTarget`,
    /// `invalidQualityRange`) or the format has no quality (`noQualitySetting`: PNG, GIF, or `options.lossless`);
    /// the encoder's and decoder's errors; `CancellationError` when `limits` say the caller has gone.
    public func run(
        _ image: DecodedImage, options: EncodeOptions = .default, limits: SearchLimits = .none
    ) throws -> QualityChoice {
        switch try search(image, options: options, limits: limits, toBeat: nil) {
        case .chosen(let choice): return choice
        case .cannotWin: preconditionFailure("a search without a size to beat always answers")
        }
    }

    /// How a search ended: with an answer, or given up because it cannot produce fewer bytes than asked.
    enum Outcome {
        case chosen(QualityChoice)
        case cannotWin(encodes: Int)
    }

    /// The search; with `bound`, it gives up as soon as it knows, or after its first encode predicts, that its
    /// answer cannot be smaller than `bound` bytes (a best-format choice's smallest output so far).
    func search(_ image: DecodedImage, options: EncodeOptions, limits: SearchLimits, toBeat bound: Int?) throws
        -> Outcome
    {
        try settings.validate()
        guard format.hasQualitySetting, !options.lossless else {
            throw QualityError(
                .noQualitySetting,
                "\(options.lossless ? "lossless \(format)" : "\(format)") has no quality to search "
                    + "(q=auto needs a lossy JPEG, WebP, AVIF, JPEG XL or HEIC output)")
        }
        try limits.checkCancellation()
        let reference = image.raster
        guard reference.width >= DSSIM.windowSize, reference.height >= DSSIM.windowSize else {
            let data = try encode(image, options: options, quality: settings.maxQuality)
            let decision = QualityDecision(format: format, quality: settings.maxQuality, target: settings.target)
            return .chosen(QualityChoice(data: data, decision: decision, encodes: 1))
        }
        var trials = QualityTrials(settings: settings, model: model)
        var quality = trials.firstEstimate(complexity: ImageComplexity.score(of: reference))
        var compared: Raster?
        var slowest = 0.0
        var stoppedEarly = false
        while true {
            let start = ContinuousClock.now
            let data = try encode(image, options: options, quality: quality)
            let decoded = try decoder.decode(data, options: Self.decodeOptions(for: reference))
            // The output shows the image as the format keeps it: flattened when it has no alpha (JPEG).
            if compared == nil {
                compared = decoded.hasAlpha ? reference : try reference.flattened(onto: options.background)
            }
            let dssim = try DSSIM.between(compared ?? reference, decoded.raster)
            slowest = max(slowest, start.duration(to: .now).seconds)
            trials.record(quality: quality, dssim: dssim, data: data)
            if let bound, trials.cannotBeat(bound) { return .cannotWin(encodes: trials.count) }
            guard trials.count < settings.maxEncodes, let next = trials.nextQuality() else { break }
            try limits.checkCancellation()
            if limits.secondsLeft < slowest {
                stoppedEarly = true
                break
            }
            quality = next
        }
        let answer = trials.answer
        let decision = QualityDecision(
            format: format, quality: answer.quality, dssim: answer.dssim, target: settings.target,
            stoppedEarly: stoppedEarly)
        return .chosen(QualityChoice(data: answer.data, decision: decision, encodes: trials.count))
    }

    private func encode(_ image: DecodedImage, options: EncodeOptions, quality: Int) throws -> Data {
        var options = options
        options.quality = quality
        return try encoder.encode(image, options: options)
    }

    /// The stored pixels of the first frame (no colour conversion: the encoder was given the same), within limits
    /// that admit an output as large as the image.
    static func decodeOptions(for reference: Raster) -> DecodeOptions {
        var limits = DecodeLimits.default
        limits.maxPixels = max(limits.maxPixels, reference.width * reference.height)
        limits.maxBytes = Int.max
        return DecodeOptions(limits: limits, frames: .first, colorProfiles: .ignore)
    }
}
