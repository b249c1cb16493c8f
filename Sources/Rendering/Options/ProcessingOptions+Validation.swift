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
    }
}
