/// thumbor's `watermark(URL,X,Y,ALPHA[,W_RATIO,H_RATIO])`, read with its patterns and meanings
/// (`thumbor/filters/watermark.py`), and `frame(URL)`: the image is at URL (a server resolves it as it resolves
/// IMAGE and checks it against its source policy).
extension ThumborGrammar {
    /// `frame(URL)`: a nine-patch image drawn around the picture.
    static let frameFilter = Row(["frame"], expected: "URL", writes: ["ninepatch"]) { reading, arguments in
        guard let url = arguments[0], !url.isEmpty else { throw arguments.malformed("URL") }
        reading.options.ninePatch = String(url)
    }

    static let watermarkExpected = "URL,X,Y,ALPHA[,W_RATIO,H_RATIO]"

    static let watermarkFilter = Row(["watermark"], expected: watermarkExpected, arguments: 4...6, writes: ["wm"]) {
        reading, arguments in
        guard let url = arguments[0], !url.isEmpty, !url.contains(",") else {
            throw arguments.malformed(watermarkExpected)
        }
        let horizontal = try position(arguments, 1, edges: ("left", "right"))
        let vertical = try position(arguments, 2, edges: ("top", "bottom"))
        // ALPHA is thumbor's `PositiveNumber` (digits): a transparency in percent, 255 × ALPHA / 100 levels (whole)
        // taken from every alpha value of the mark.
        guard let alpha = arguments[3].flatMap({ NumberSpelling.plain.integer($0, in: 0...Int(Int32.max)) }) else {
            throw arguments.malformed(watermarkExpected)
        }
        var mark = ProcessingOptions.Watermark(
            opacity: 1, position: gravity(halign: horizontal.edge, valign: vertical.edge))
        mark.offset = ProcessingOptions.Offset(x: horizontal.offset, y: vertical.offset)
        mark.alphaReduction = min(255, 255 * min(alpha, 1000) / 100)
        if horizontal.repeats || vertical.repeats {
            mark.tiling = .spread(horizontal: horizontal.repeats, vertical: vertical.repeats)
        }
        (mark.fitWidth, mark.fitHeight) = (try ratio(arguments, 4), try ratio(arguments, 5))
        mark.source = String(url)
        reading.options.watermark = mark
    }

    /// One of X and Y: `N` pixels from the left (top), `-N` from the right (bottom), `Np` percent of the side,
    /// `center` or `repeat`. The edge it is measured from is one of `edges` (as thumbor's `halign`/`valign` name
    /// them), or `center`.
    private static func position(_ arguments: OptionArguments, _ index: Int, edges: (start: String, end: String))
        throws -> (edge: String, offset: Double, repeats: Bool)
    {
        guard var text = arguments[index] else { throw arguments.malformed(watermarkExpected) }
        switch text {
        case "center": return ("center", 0, false)
        case "repeat": return (edges.start, 0, true)
        default: break
        }
        let fromEnd = text.first == "-"
        if fromEnd { text = text.dropFirst() }
        let percent = text.last == "p"
        if percent { text = text.dropLast() }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
            let number = Int(text.prefix(9))
        else { throw arguments.malformed(watermarkExpected) }
        // A percentage is a fraction of the side (100p or more puts the mark past the edge, as 99.999% does).
        let offset = percent ? min(Double(number) / 100, 0.99999) : Double(number)
        return (fromEnd ? edges.end : edges.start, offset, false)
    }

    /// W_RATIO or H_RATIO, a percentage of the image's side, as a fraction; `none`, 0 or left out: none.
    private static func ratio(_ arguments: OptionArguments, _ index: Int) throws -> Double? {
        guard let text = arguments[index], text != "none" else { return nil }
        guard let percent = NumberSpelling.plain.integer(text, in: -Int(Int32.max)...Int(Int32.max)) else {
            throw arguments.malformed(watermarkExpected)
        }
        guard percent >= 0 else {
            throw OptionError(
                .conflicting, item: arguments.shown, message: "thumbor: a watermark size ratio cannot be negative")
        }
        guard percent <= 10_000 else {
            throw OptionError(
                .conflicting, item: arguments.shown, message: "thumbor: a watermark size ratio is at most 10000%")
        }
        return percent == 0 ? nil : Double(percent) / 100
    }
}
