/// The one check of options taken together, whichever grammar wrote them: what a row cannot see alone.
extension ProcessingOptions {
    /// Throws a `conflicting` `OptionError` when options do not hold together: `w`, `h` (after `dpr`) or a `pad`
    /// side over `maxOutputSide`, `ext` without both `w` and `h`. `spelling` gives an option (by its Imago key)
    /// as the user wrote it, so the message names what they wrote in their grammar.
    public func validate(_ context: Context, spelling: (String) -> String = { $0 }) throws {
        func conflict(_ key: String, _ message: String) -> OptionError {
            let written = OptionError.shown(spelling(key))
            return OptionError(.conflicting, item: written, message: "option \"\(written)\"\(message)")
        }
        // A URL may tighten the service's limits, never loosen them (imgproxy refuses its security options).
        if let (key, limit) = limits.looser(than: context.sourceLimits, maxOutputSide: context.maxOutputSide) {
            throw conflict(key, " is looser than the service's limit of \(limit): a URL may only tighten it")
        }
        let dprNote = dpr == 1 ? "" : " with \"\(OptionError.shown(spelling("dpr")))\""
        for (key, side, scaled) in [("w", width, outputWidth), ("h", height, outputHeight)] {
            guard side != nil, let scaled, scaled > context.maxOutputSide else { continue }
            throw conflict(key, "\(dprNote) is \(scaled) px, over the limit of \(context.maxOutputSide)")
        }
        if let pad = outputPadding, max(pad.top, pad.right, pad.bottom, pad.left) > context.maxOutputSide {
            throw conflict("pad", "\(dprNote) is over the limit of \(context.maxOutputSide) px")
        }
        if blurFaces != nil, pixelateFaces != nil {
            throw conflict("pixelatefaces", " cannot go with \"\(OptionError.shown(spelling("blurfaces")))\"")
        }
        if extend, width == nil || height == nil {
            throw conflict("ext", " needs both a width and a height to extend to")
        }
        try validateQuality(conflict)
    }

    /// `q=auto` and `f=best`: a target in (0, 1), a minimum not above the maximum, an output format with a
    /// quality, and no `maxb` (both would choose the quality).
    private func validateQuality(_ conflict: (String, String) -> OptionError) throws {
        if let auto = autoQuality {
            do {
                // The parts given, over defaults that cannot conflict with them; the service's own settings are
                // checked with them when the request is served.
                let low = auto.minQuality ?? min(auto.maxQuality ?? 1, 30)
                _ = try auto.settings(over: AutoQuality(minQuality: low, maxQuality: auto.maxQuality ?? max(low, 95)))
            } catch let error as QualityError {
                throw conflict("q", ": \(error.reason)")
            }
            if case .format(let named) = format, !named.hasQualitySetting {
                throw conflict(
                    "q", ": \(named) has no quality to search (q=auto needs JPEG, WebP, AVIF, JPEG XL or HEIC)")
            }
        }
        if maxBytes != nil, autoQuality != nil || format == .best {
            throw conflict("maxb", " cannot be combined with q=auto or f=best: both choose the quality")
        }
    }
}
