/// thumbor's `filters:name(args):name(args)…`, one row each. The order of the filters in the URL does not
/// matter: Imago applies its operations in its fixed order.
extension ThumborGrammar {
    typealias Row = OptionRow<Scratch>

    /// The filters.
    public static let filters = OptionGrammar<Scratch>(
        style: OptionStyle(
            grammar: "thumbor", noun: "filter", valueSeparator: "", numbers: .plain,
            booleans: ["1": true, "true": true, "True": true, "0": false, "false": false, "False": false]),
        rows: outputFilters + pixelFilters, unsupported: unsupportedFilters, laterOptionsOverride: true)

    /// `name(args):name(args)…` as items (arguments split by `,`, spaces around them dropped).
    static func filterItems(_ text: Substring) throws -> [OptionItem] {
        var items: [OptionItem] = []
        var rest = text
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else {
                throw OptionError(
                    .malformed, item: "filters", message: "thumbor: filters must be name(args) joined by :")
            }
            let inside = rest[rest.index(after: open)..<close]
            let values = inside.split(separator: ",", omittingEmptySubsequences: false).map { value in
                value.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            }.map { Substring($0) }
            items.append(
                OptionItem(
                    written: rest[...close], name: rest[..<open], values: values == [""] ? [] : values))
            rest = rest[rest.index(after: close)...]
            if rest.first == ":" {
                rest = rest.dropFirst()
            } else if !rest.isEmpty {
                throw OptionError(
                    .malformed, item: "filters", message: "thumbor: filters must be name(args) joined by :")
            }
        }
        return items
    }

    static let formatExpected = "jpeg, png, webp, gif, avif, heic or jxl"

    static let outputFilters: [Row] = [
        Row(["quality"], expected: "a quality from 0 to 100", writes: ["q"]) { reading, arguments in
            let quality = try arguments.int(0, in: 0...100) ?? 0
            reading.options.quality = quality == 0 ? nil : quality
        },
        Row(["format"], expected: formatExpected, writes: ["f"]) { reading, arguments in
            let name = arguments[0]?.lowercased()
            let format = name == "jpg" ? "jpeg" : name ?? ""
            guard ["jpeg", "png", "webp", "gif", "avif", "heic", "jxl"].contains(format) else {
                throw arguments.malformed()
            }
            reading.options.format = .format(ImageFormat(format))
        },
        Row(["max_bytes"], expected: "a number of bytes", writes: ["maxb"]) { reading, arguments in
            reading.options.maxBytes = try arguments.int(0, in: 1...2_000_000_000)
        },
        Row(["no_upscale"], expected: "no arguments", arguments: 0...0, writes: ["enlarge"]) { reading, _ in
            reading.scratch.upscale = false
        },
        Row(["upscale"], expected: "no arguments", arguments: 0...0, writes: ["enlarge"]) { reading, _ in
            reading.scratch.upscale = true
        },
        Row(["strip_exif"], expected: "no arguments", arguments: 0...0, writes: ["strip"]) { reading, _ in
            reading.options.strip = true
        },
        Row(["strip_icc"], expected: "no arguments", arguments: 0...0, writes: ["strip"]) { reading, _ in
            reading.options.strip = true
        },
    ]

    static let pixelFilters: [Row] = [
        Row(["blur"], expected: "RADIUS[,SIGMA]", arguments: 1...2, writes: ["blur"]) { reading, arguments in
            let radius = try arguments.int(0, in: 0...150, expected: "a radius from 0 to 150") ?? 0
            let sigma = try arguments.int(1, in: 0...150, expected: "a sigma from 0 to 150") ?? radius
            reading.options.blur = radius > 0 && sigma > 0 ? Double(min(sigma, 100)) : nil
        },
        Row(["sharpen"], expected: "AMOUNT,RADIUS[,LUMINANCE_ONLY]", arguments: 2...3, writes: ["sharpen"]) {
            reading, arguments in
            guard let radius = try arguments.decimal(1, in: 0...10, expected: "a radius from 0.3 to 10"), radius > 0
            else { throw arguments.malformed("a radius from 0.3 to 10") }
            reading.options.sharpen = max(0.3, radius)
        },
        Row(["rotate"], expected: "a multiple of 90", writes: ["rot"]) { reading, arguments in
            guard let degrees = try arguments.int(0, in: -3600...3600), degrees % 90 == 0 else {
                throw arguments.malformed("a multiple of 90 (Imago rotates by quarter turns)")
            }
            // thumbor (PIL) turns counter-clockwise; Imago's rot is clockwise.
            let clockwise = (360 - degrees % 360) % 360
            reading.options.rotate = clockwise == 0 ? nil : clockwise
        },
        Row(["background_color"], expected: "a hex colour", writes: ["bg"]) { reading, arguments in
            reading.options.background = try hex(arguments, 0)
        },
        Row(["fill"], expected: "COLOUR[,FILL_TRANSPARENT]", arguments: 1...2, writes: ["ext", "bg"]) {
            reading, arguments in
            let colour = arguments[0] == "transparent" ? RGBA(0, 0, 0, 0) : try hex(arguments, 0)
            reading.options.extend = true
            reading.options.background = colour
            reading.scratch.fill = arguments.shown
        },
        Row(["grayscale"], expected: "no arguments", arguments: 0...0, writes: ["gray"]) { reading, _ in
            reading.options.grayscale = true
        },
        Row(["brightness"], expected: "an amount from -100 to 100", writes: ["bright"]) { reading, arguments in
            let amount = try arguments.int(0, in: -100...100) ?? 0
            reading.options.brightness = amount == 0 ? nil : amount
        },
        Row(["contrast"], expected: "an amount from -100 to 100", writes: ["contrast"]) { reading, arguments in
            let amount = try arguments.int(0, in: -100...100) ?? 0
            reading.options.contrast = amount == 0 ? nil : amount
        },
        Row(["round_corner"], expected: "A|B,R,G,B[,TRANSPARENT]", arguments: 4...5, writes: ["round"]) {
            reading, arguments in
            let radii = (arguments[0] ?? "").split(separator: "|", omittingEmptySubsequences: false)
            let numbers = radii.compactMap { NumberSpelling.plain.integer($0, in: 1...100_000) }
            guard (1...2).contains(radii.count), numbers.count == radii.count else {
                throw arguments.malformed("radii A or A|B from 1")
            }
            let channels = try (1...3).map { try arguments.int($0, in: 0...255, expected: "R,G,B from 0 to 255") ?? 0 }
            let transparent = try arguments.bool(4) ?? false
            reading.options.roundCorners = ProcessingOptions.RoundCorners(
                radiusX: numbers[0], radiusY: numbers.last ?? numbers[0],
                background: RGBA(UInt8(channels[0]), UInt8(channels[1]), UInt8(channels[2]), transparent ? 0 : 255))
        },
    ]

    /// `RGB` or `RRGGBB` (thumbor's hex forms).
    static func hex(_ arguments: OptionArguments, _ index: Int) throws -> RGBA {
        let text = arguments[index] ?? ""
        let digits = text.count == 3 ? text.map { "\($0)\($0)" }.joined() : String(text)
        guard digits.count == 6, let colour = RGBA(hex: digits) else {
            throw arguments.malformed("a hex colour (RGB or RRGGBB)")
        }
        return colour
    }

    /// Filters thumbor has that Imago does not, and why.
    static let unsupportedFilters: [String: String] = [
        "watermark": "its image is a URL in the URL; Imago draws the one configured (serve.watermark)",
        "focal": "its region is in source pixels, Imago's focus point is a fraction chosen before the source is loaded",
        "equalize": "no equalize operation in Imago", "noise": "no noise operation in Imago",
        "colorize": "no colorize operation in Imago", "rgb": "no channel gains in Imago",
        "saturation": "no saturation operation in Imago", "curve": "no curves in Imago",
        "convolution": "no convolution operation in Imago", "redeye": "no red-eye detection in Imago",
        "frame": "no nine-patch frames in Imago", "extract_focal": "no focal extraction in Imago",
        "proportion": "no proportion operation in Imago", "stretch": "no stretch of thumbor's kind",
        "max_age": "Cache-Control is serve.cacheMaxAge", "autojpg": "no automatic JPEG conversion",
        "cover": "GIF covers are not extracted",
    ]
}
