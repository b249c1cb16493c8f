/// imgproxy's processing options (`/rs:fill:300:200/g:sm/…`): each `name:arg:…` segment read by one row into the
/// options model, later options overriding earlier ones, as imgproxy's documentation describes them. An option
/// Imago cannot honour is a 400 naming it (`ImgproxyGrammar.unsupported`).
public enum ImgproxyGrammar {
    /// What imgproxy's options keep while they are read, for the rules that need several of them.
    public struct Scratch: Sendable {
        /// `rt:fill-down` (fill, and never a target larger than the image's aspect allows) rather than `fill`.
        public var fillDown = false
        /// `zoom`'s factors: on the resize when there is one, else on the image.
        public var zoom: (x: Double, y: Double)?
        public init() {}
    }

    /// The grammar.
    public static let grammar = OptionGrammar<Scratch>(
        style: OptionStyle(
            grammar: "imgproxy", noun: "option", valueSeparator: ":", numbers: .any,
            booleans: ["1": true, "t": true, "true": true, "0": false, "f": false, "false": false]),
        rows: sizeRows + placementRows + effectRows + outputRows + answerRows, unsupported: unsupported,
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

    /// The rules over several options: `fill` without `enlarge` cuts its target to the image (where `fill-down`
    /// keeps the target's aspect); `zoom` scales the resize, or the image when nothing resizes it; `format_quality`
    /// of a format the URL names is its quality (one key with `q`).
    static func finish(_ reading: inout OptionsReading<Scratch>) throws {
        // A quality given in the URL wins over autoquality; format_quality gives a default only without either.
        if reading.options.quality != nil { reading.options.autoQuality = nil }
        let options = reading.options
        if options.autoQuality != nil {
            reading.options.formatQualities = [:]
        } else if case .format(let format)? = options.format, !options.formatQualities.isEmpty {
            if options.quality == nil, let quality = options.formatQualities[format] {
                reading.options.quality = quality
                reading.spellings["q"] = reading.spelling(of: "fq")
            }
            reading.options.formatQualities = [:]
        }
        if options.fit == .cover, !options.enlarge, !reading.scratch.fillDown {
            reading.options.adjustments.clampsTargetToImage = true
        }
        if let zoom = reading.scratch.zoom, zoom != (1, 1) {
            if options.width != nil || options.height != nil {
                reading.options.adjustments.zoom = zoom
            } else {
                reading.options.scale = ProcessingOptions.Scale(x: zoom.x, y: zoom.y, rounding: .nearest)
            }
        }
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

    static func fit(_ arguments: OptionArguments, _ index: Int, _ scratch: inout Scratch) throws
        -> ProcessingOptions.Fit?
    {
        guard let name = arguments[index] else { return nil }
        guard let fit = fits[String(name)] else { throw arguments.malformed("fit, fill, fill-down, force or auto") }
        scratch.fillDown = name == "fill-down"
        return fit
    }

    /// `TYPE[:X_OFFSET:Y_OFFSET]`, `fp:X:Y` or `sm` at `index`, and its offsets (pixels, or fractions of the side
    /// below 1; none for a focus point or smart).
    static func gravity(_ arguments: OptionArguments, at index: Int, allowsSmart: Bool) throws -> (
        gravity: Gravity, offset: ProcessingOptions.Offset
    ) {
        let (gravity, taken) = try arguments.gravity(
            at: index, names: gravities, allowsSmart: allowsSmart, expected: gravityExpected)
        let start = index + taken
        if gravity == .smart, arguments.values.dropFirst(start).contains(where: { Double($0) ?? 1 != 0 }) {
            throw arguments.unsupported("offsets of smart gravity")
        }
        guard taken == 1, gravity != .smart, arguments.count > start else { return (gravity, .init()) }
        guard arguments.count <= start + 2 else { throw arguments.malformed() }
        let x = try arguments.decimal(start, in: -99_999...99_999, expected: "offsets in pixels") ?? 0
        let y = try arguments.decimal(start + 1, in: -99_999...99_999, expected: "offsets in pixels") ?? 0
        return (gravity, ProcessingOptions.Offset(x: x, y: y))
    }
}
