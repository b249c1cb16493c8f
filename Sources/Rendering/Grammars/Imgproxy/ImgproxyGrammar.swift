/// imgproxy's processing options (`/rs:fill:300:200/g:sm/…`): each `name:arg:…` segment read by one row into the
/// options model, later options overriding earlier ones, as imgproxy's documentation describes them. An option
/// Imago cannot honour is a 400 naming it (`ImgproxyGrammar.unsupported`).
public enum ImgproxyGrammar {
    /// What imgproxy's options keep while they are read: the per-format qualities, resolved once the format is
    /// known.
    public struct Scratch: Sendable {
        /// `format_quality`'s pairs.
        public var formatQuality: [ImageFormat: Int] = [:]
        /// The item that set them, as written.
        public var formatQualityItem: String?
        public init() {}
    }

    /// The grammar.
    public static let grammar = OptionGrammar<Scratch>(
        style: OptionStyle(
            grammar: "imgproxy", noun: "option", valueSeparator: ":", numbers: .plain,
            booleans: ["1": true, "t": true, "true": true, "0": false, "f": false, "false": false]),
        rows: sizeRows + placementRows + effectRows + outputRows, unsupported: unsupported,
        laterOptionsOverride: true)

    /// The options of `segments` (each `name:arg:…`; the URL's `@ext` or `.ext` as `extension`), checked
    /// together.
    public static func options(
        _ segments: [Substring], extension: Substring?, context: ProcessingOptions.Context
    ) throws -> OptionsReading<Scratch> {
        var items = segments.map { OptionItem($0, separator: ":", argumentSeparator: ":") }
        if let name = `extension` { items.append(OptionItem(written: "@" + name, name: "format", values: [name])) }
        var reading = OptionsReading(scratch: Scratch())
        try grammar.read(items, into: &reading, context: context)
        try finish(&reading)
        try reading.options.validate(context, spelling: reading.spelling(of:))
        return reading
    }

    /// `format_quality` gives the quality of the output format, when `quality` did not.
    static func finish(_ reading: inout OptionsReading<Scratch>) throws {
        // A quality given in the URL wins over autoquality; format_quality only gives a default.
        if reading.options.quality != nil { reading.options.autoQuality = nil }
        guard reading.options.quality == nil, reading.options.autoQuality == nil, !reading.scratch.formatQuality.isEmpty
        else { return }
        guard case .format(let format)? = reading.options.format else {
            let item = reading.scratch.formatQualityItem ?? "format_quality"
            throw OptionError(
                .conflicting, item: item,
                message: "imgproxy option \"\(item)\" needs the output format in the URL (format: or an extension)")
        }
        reading.options.quality = reading.scratch.formatQuality[format]
        if let item = reading.scratch.formatQualityItem { reading.spellings["q"] = item }
    }

    typealias Row = OptionRow<Scratch>

    /// imgproxy's gravity types.
    static let gravities: [String: Gravity] = [
        "ce": .center, "no": .north, "so": .south, "ea": .east, "we": .west, "noea": .northEast, "nowe": .northWest,
        "soea": .southEast, "sowe": .southWest, "sm": .smart,
    ]
    static let gravityExpected = "ce, no, so, ea, we, noea, nowe, soea, sowe, fp:X:Y or sm"

    /// imgproxy's resizing types as Imago's fits (`fill-down` fills too: Imago never enlarges unless asked).
    static let fits: [String: ProcessingOptions.Fit] = [
        "fit": .contain, "fill": .cover, "fill-down": .cover, "force": .fill, "auto": .auto,
    ]

    /// A side in pixels; 0 keeps the aspect ratio (nil).
    static func side(_ arguments: OptionArguments, _ index: Int) throws -> Int?? {
        guard let value = try arguments.int(index, in: 0...99_999, expected: "a size in pixels") else { return nil }
        return .some(value == 0 ? nil : value)
    }

    static func fit(_ arguments: OptionArguments, _ index: Int) throws -> ProcessingOptions.Fit? {
        guard let name = arguments[index] else { return nil }
        guard let fit = fits[String(name)] else { throw arguments.malformed("fit, fill, fill-down, force or auto") }
        return fit
    }

    /// `TYPE[:X_OFFSET:Y_OFFSET]`, `fp:X:Y` or `sm` at `index`; offsets other than 0 are not supported.
    static func gravity(_ arguments: OptionArguments, at index: Int, allowsSmart: Bool) throws -> Gravity {
        let (gravity, taken) = try arguments.gravity(
            at: index, names: gravities, allowsSmart: allowsSmart, expected: gravityExpected)
        if case .focusPoint = gravity { return gravity }
        for offset in arguments.values.dropFirst(index + taken) where !offset.isEmpty && Double(offset) != 0 {
            throw arguments.unsupported("gravity offsets: Imago's gravities have none")
        }
        return gravity
    }
}
