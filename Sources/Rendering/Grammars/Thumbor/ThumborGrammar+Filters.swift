/// thumbor's `filters:name(args):name(args)…`, one row each. The colour effects apply in the URL's order
/// (`ProcessingOptions.effectOrder`), the other operations in Imago's fixed order. As thumbor does, a filter it does
/// not know, or whose arguments its patterns do not read, is skipped (`Scratch.skippedFilters`), so a URL that worked
/// keeps working.
extension ThumborGrammar {
    typealias Row = OptionRow<Scratch>

    /// The filters.
    public static let filters = OptionGrammar<Scratch>(
        style: OptionStyle(
            grammar: "thumbor", noun: "filter", valueSeparator: "", numbers: .plain,
            booleans: ["1": true, "true": true, "True": true, "0": false, "false": false, "False": false]),
        rows: outputFilters + pixelFilters + [watermarkFilter, frameFilter], unsupported: unsupportedFilters,
        laterOptionsOverride: true)

    /// `name(args):name(args)…` as items (arguments split by the `,` outside brackets, spaces around them dropped:
    /// `curve([(0,0),(255,255)],…)` has four).
    static func filterItems(_ text: Substring) throws -> [OptionItem] {
        var items: [OptionItem] = []
        var rest = text
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = closing(rest, from: open) else {
                throw OptionError(
                    .malformed, item: "filters", message: "thumbor: filters must be name(args) joined by :")
            }
            let inside = rest[rest.index(after: open)..<close]
            let values = topLevelParts(inside).map { value in
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

    /// The `)` that closes the `(` at `open`, brackets inside counted.
    static func closing(_ text: Substring, from open: Substring.Index) -> Substring.Index? {
        var depth = 0
        for index in text[open...].indices {
            switch text[index] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return text[index] == ")" ? index : nil }
            default: break
            }
        }
        return nil
    }

    /// `text` split at the commas outside brackets.
    static func topLevelParts(_ text: Substring) -> [Substring] {
        var (parts, start, depth) = ([Substring](), text.startIndex, 0)
        for index in text.indices {
            switch text[index] {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts
    }

    /// `[(x,y),(x,y),…]` as the flat list x, y, x, y, …, nil when it is not one.
    static func curvePoints(_ text: Substring) -> [Int]? {
        guard text.first == "[", text.last == "]" else { return nil }
        let numbers = text.dropFirst().dropLast().split(whereSeparator: { "(), ".contains($0) })
        let values = numbers.compactMap { NumberSpelling.plain.integer($0, in: 0...255) }
        guard values.count == numbers.count, !values.isEmpty, values.count % 2 == 0 else { return nil }
        return values
    }

    static let formatExpected = "jpeg, png, webp, gif, avif, heic or jxl"

    static let outputFilters: [Row] = [
        Row(["quality"], expected: "a quality from 0 to 100", writes: ["q"]) { reading, arguments in
            let quality = try arguments.int(0, in: 0...100) ?? 0
            reading.options.quality = quality == 0 ? nil : quality
        },
        // An unknown format is ignored (the source's format), as thumbor ignores it.
        Row(["format"], expected: formatExpected, writes: ["f"]) { reading, arguments in
            let name = arguments[0]?.lowercased()
            let format = ["jpg": "jpeg", "heif": "heic"][name ?? ""] ?? name ?? ""
            guard ["jpeg", "png", "webp", "gif", "avif", "heic", "jxl"].contains(format) else { return }
            reading.options.format = .format(ImageFormat(format))
        },
        Row(["max_bytes"], expected: "a number of bytes", writes: ["maxb"]) { reading, arguments in
            reading.options.maxBytes = try arguments.int(0, in: 1...2_000_000_000)
        },
        Row(["no_upscale"], expected: "no arguments", arguments: 0...0, writes: ["enlarge", "adj"]) { reading, _ in
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
        // A GIF's first frame.
        Row(["cover"], expected: "no arguments", arguments: 0...0, writes: ["frame"]) { reading, _ in
            reading.options.frame = 0
        },
        Row(["focal"], expected: "LEFTxTOP:RIGHTxBOTTOM", writes: ["focal"]) { reading, arguments in
            // An empty or invalid region is ignored, as thumbor ignores it.
            guard let box = try cropPattern(arguments[0] ?? ""), box.box.2 > box.box.0, box.box.3 > box.box.1
            else { return }
            reading.scratch.focalBoxes.append(box.box)
        },
        Row(["extract_focal"], expected: "no arguments", arguments: 0...0, writes: ["focal"]) { reading, _ in
            reading.scratch.extractsFocal = true
        },
        Row(["proportion"], expected: "a factor above 0, at most 1", writes: ["scale"]) { reading, arguments in
            // Outside (0, 1] thumbor leaves the image as it is.
            guard let factor = try arguments.decimal(0, in: -1_000_000...1_000_000), factor > 0, factor <= 1 else {
                return
            }
            reading.options.scale = ProcessingOptions.Scale(x: factor, y: factor, rounding: .down)
        },
        Row(["stretch"], expected: "no arguments", arguments: 0...0, writes: ["fit"]) { reading, _ in
            reading.scratch.stretch = true
        },
        // The answer's Cache-Control max-age, at most the service's (`serve.cacheMaxAge`).
        Row(["max_age"], expected: ProcessingOptions.AnswerValue.seconds.expected, writes: ["maxage"]) {
            reading, arguments in
            reading.options.maxAge = try ProcessingOptions.AnswerValue.seconds.read(arguments)
        },
        // A PNG source without alpha answered as JPEG, unless format() names one.
        Row(["autojpg"], expected: "nothing, True or False", arguments: 0...1, writes: ["autojpg"]) {
            reading, arguments in
            reading.options.autoJPEG = try arguments.bool(0) ?? true
        },
    ]

    static let pixelFilters: [Row] = [
        // A radius over 150 is cut to 150, as thumbor cuts it; 0 blurs nothing.
        Row(["blur"], expected: "RADIUS[,SIGMA]", arguments: 1...2, writes: ["gblur"]) { reading, arguments in
            let radius = min(150, try arguments.int(0, in: 0...999_999_999, expected: "a radius") ?? 0)
            let sigma = try arguments.decimal(1, in: 0...999_999_999, expected: "a sigma") ?? Double(radius)
            reading.options.truncatedBlur =
                radius > 0 && sigma > 0 ? ProcessingOptions.TruncatedBlur(radius: radius, sigma: sigma) : nil
        },
        Row(["sharpen"], expected: "AMOUNT,RADIUS[,LUMINANCE_ONLY]", arguments: 2...3, writes: ["wsharpen"]) {
            reading, arguments in
            let amount = try arguments.decimal(0, in: -100...100, expected: "an amount") ?? 0
            let radius = try arguments.decimal(1, in: 0...100, expected: "a radius") ?? 0
            reading.options.waveletSharpen = ProcessingOptions.WaveletSharpen(
                amount: amount, radius: radius, luminanceOnly: try arguments.bool(2) ?? false)
        },
        Row(["rotate"], expected: "a multiple of 90", writes: ["rot"]) { reading, arguments in
            // Another angle is no rotation, as thumbor leaves it.
            guard let degrees = try arguments.int(0, in: -999_999_999...999_999_999), degrees % 90 == 0 else {
                return
            }
            // thumbor (PIL) turns counter-clockwise; Imago's rot is clockwise.
            let clockwise = (360 - degrees % 360) % 360
            reading.options.rotate = clockwise == 0 ? nil : clockwise
        },
        Row(["background_color"], expected: "a colour or auto", writes: ["flatten", "fill", "bg"]) {
            reading, arguments in
            if arguments[0] == "auto" {
                reading.options.canvasFill = ProcessingOptions.CanvasFill(
                    fill: .average, fillsTransparency: true, usesTargetSize: false)
            } else {
                let colour = try colour(arguments, 0)
                reading.options.flatten = colour
                reading.options.background = colour
            }
        },
        Row(["fill"], expected: "COLOUR, auto or blur[,FILL_TRANSPARENT]", arguments: 1...2, writes: ["fill"]) {
            reading, arguments in
            let fill: CanvasFillProcessor.Fill =
                switch arguments[0]?.lowercased() {
                case "auto": .average
                case "blur": .blur
                default: .colour(try colour(arguments, 0))
                }
            reading.options.canvasFill = ProcessingOptions.CanvasFill(
                fill: fill, fillsTransparency: try arguments.bool(1) ?? false)
        },
        Row(["rgb"], expected: "R,G,B (from -100 to 100)", arguments: 3...3, writes: ["rgb"]) { reading, arguments in
            let shifts = try (0..<3).map { try arguments.int($0, in: -100...100) ?? 0 }
            reading.options.channelShift = ProcessingOptions.ChannelShift(
                red: shifts[0], green: shifts[1], blue: shifts[2])
        },
        Row(["colorize"], expected: "R,G,B,COLOUR", arguments: 4...4, writes: ["colorize"]) { reading, arguments in
            let percents = try (0..<3).map { try arguments.int($0, in: 0...100) ?? 0 }
            reading.options.colorize = ProcessingOptions.Colorize(
                red: percents[0], green: percents[1], blue: percents[2], colour: try colour(arguments, 3))
        },
        Row(["saturation"], expected: "a factor", writes: ["sat"]) { reading, arguments in
            reading.options.saturation = try arguments.decimal(0, in: 0...100)
        },
        Row(["equalize"], expected: "no arguments", arguments: 0...0, writes: ["equalize"]) { reading, _ in
            reading.options.equalize = true
        },
        Row(["noise"], expected: "an amount from 0 to 100", arguments: 1...2, writes: ["noise"]) {
            reading, arguments in
            // Without a seed thumbor continues a process-wide sequence; Imago starts it afresh, one result per URL.
            let amount = try arguments.int(0, in: NoiseProcessor.amountRange) ?? 0
            let seed = try arguments.int(1, in: 0...Int(UInt32.max)) ?? 0
            reading.options.noise = amount == 0 ? nil : ProcessingOptions.Noise(amount: amount, seed: UInt32(seed))
        },
        Row(["curve"], expected: "four lists [(x,y),…]: all, red, green, blue", arguments: 4...4, writes: ["curve"]) {
            reading, arguments in
            let curves = arguments.values.compactMap(curvePoints)
            guard curves.count == 4 else { throw arguments.malformed() }
            reading.options.curves = ProcessingOptions.Curves(
                all: curves[0], red: curves[1], green: curves[2], blue: curves[3])
        },
        Row(["convolution"], expected: "K1;K2;…,COLUMNS,NORMALIZE", arguments: 3...3, writes: ["conv"]) {
            reading, arguments in
            let kernel = (arguments[0] ?? "").split(separator: ";", omittingEmptySubsequences: false)
            let values = kernel.compactMap { NumberSpelling.plain.decimal($0, in: -100_000...100_000) }
            guard values.count == kernel.count, let columns = try arguments.int(1, in: 1...11) else {
                throw arguments.malformed()
            }
            guard values.count <= ConvolutionProcessor.maxEntries else {
                throw arguments.unsupported("a kernel over 11 x 11")
            }
            reading.options.convolution = ProcessingOptions.Convolution(
                kernel: values, columns: columns, normalize: try arguments.bool(2) ?? false)
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

    /// A colour as thumbor reads it (Pillow's `ImageColor`): a CSS name, hex digits, `transparent`.
    static func colour(_ arguments: OptionArguments, _ index: Int) throws -> RGBA {
        guard let colour = RGBA(cssColor: arguments[index] ?? "") else {
            throw arguments.malformed("a colour (a CSS name, RGB or RRGGBB)")
        }
        return colour
    }

    /// Filters thumbor has that Imago does not, and why.
    static let unsupportedFilters: [String: String] = ["redeye": "no red-eye detection in Imago"]
}
