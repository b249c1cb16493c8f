/// Imago's rows for what imgproxy's and thumbor's URLs ask beyond its first set (issue 35): each is how the model
/// holds it in the canonical form (the cache key), so an imgproxy or thumbor URL and its Imago spelling share one
/// entry.
extension ProcessingOptions {
    static let adjustmentFlags = "clamp, floor, floorup, whole, srcw or srch joined by :"

    static let resizeRows: [OptionRow<Void>] = [
        row("adj", adjustmentFlags, arguments: 1...6, canonical: { $0.canonicalAdjustmentFlags }) {
            options, arguments in
            for flag in arguments.values {
                switch flag {
                case "clamp": options.adjustments.clampsTargetToImage = true
                case "floor": options.adjustments.roundsSidesDown = true
                case "floorup": options.adjustments.roundsEnlargedSidesDown = true
                case "whole": options.adjustments.cropsWholePixels = true
                case "srcw": options.adjustments.usesSourceWidth = true
                case "srch": options.adjustments.usesSourceHeight = true
                default: throw arguments.malformed()
                }
            }
        },
        row("minw", "a whole number of pixels", canonical: { $0.outputAdjustments.minimumWidth.nonZero }) {
            $0.adjustments.minimumWidth = try $1.int(0, in: 0...99_999) ?? 0
        },
        row("minh", "a whole number of pixels", canonical: { $0.outputAdjustments.minimumHeight.nonZero }) {
            $0.adjustments.minimumHeight = try $1.int(0, in: 0...99_999) ?? 0
        },
        row(
            "zoom", "X or X:Y (factors from 0.0001 to 100)", arguments: 1...2,
            canonical: { options in
                let zoom = options.adjustments.zoom
                return zoom == (1, 1) ? nil : "\(NumberText.canonical(zoom.x)):\(NumberText.canonical(zoom.y))"
            }
        ) { options, arguments in
            let x = try arguments.decimal(0, in: ScaleProcessor.factorRange) ?? 1
            options.adjustments.zoom = (x, try arguments.decimal(1, in: ScaleProcessor.factorRange) ?? x)
        },
        row(
            "focal", "X:Y:W:H in pixels of the source, one or more", arguments: 4...64,
            canonical: { options in
                let regions = options.adjustments.focalRegions
                return regions.isEmpty
                    ? nil : regions.map { "\($0.x):\($0.y):\($0.width):\($0.height)" }.joined(separator: ":")
            }
        ) { options, arguments in
            guard arguments.count % 4 == 0 else { throw arguments.malformed() }
            let values = try (0..<arguments.count).map { try arguments.int($0, in: 0...999_999_999) ?? 0 }
            options.adjustments.focalRegions = stride(from: 0, to: values.count, by: 4).map {
                ResizeAdjustments.Region(
                    x: values[$0], y: values[$0 + 1], width: values[$0 + 2], height: values[$0 + 3])
            }
            guard values.enumerated().allSatisfy({ $0.offset % 4 < 2 || $0.element > 0 }) else {
                throw arguments.malformed("regions with an area")
            }
        },
        row(
            "scale", "X, X:Y or X:Y:down (factors from 0.0001 to 100)", arguments: 1...3,
            canonical: { options in
                options.scale.map {
                    "\(NumberText.canonical($0.x)):\(NumberText.canonical($0.y)):\($0.rounding.rawValue)"
                }
            }
        ) { options, arguments in
            let x = try arguments.decimal(0, in: ScaleProcessor.factorRange) ?? 1
            let y = try arguments.decimal(1, in: ScaleProcessor.factorRange) ?? x
            var rounding = ScaleProcessor.Rounding.nearest
            if arguments.count == 3 {
                guard let named = ScaleProcessor.Rounding(rawValue: String(arguments.values[2])) else {
                    throw arguments.malformed()
                }
                rounding = named
            }
            options.scale = Scale(x: x, y: y, rounding: rounding)
        },
        row(
            "exar", "0, 1 or 1:G (G where the image goes, as g without sm)", arguments: 1...2,
            canonical: { $0.aspectExtend.map { "1:\($0.code)" } }
        ) { options, arguments in
            guard try arguments.bool(0) == true else {
                options.aspectExtend = nil
                return
            }
            options.aspectExtend =
                arguments.count > 1
                ? try arguments.gravity(at: 1, allowsSmart: false, expected: placementExpected).gravity : .center
        },
        row(
            "pix", "a block size in pixels from 1",
            canonical: { options in
                options.pixelate.map { String(scaled($0, options.dpr)) }
            }
        ) {
            $0.pixelate = try $1.int(0, in: 1...10_000)
        },
        row("ar", "0 or 1", canonical: { $0.appliesOrientation ? nil : "0" }) {
            $0.appliesOrientation = try $1.bool(0) ?? true
        },
        row(
            "fq", "FORMAT:QUALITY pairs", arguments: 2...16,
            canonical: { options in
                options.formatQualities.isEmpty
                    ? nil
                    : options.formatQualities.sorted { $0.key.description < $1.key.description }
                        .map { "\($0.key):\($0.value)" }.joined(separator: ":")
            }
        ) { options, arguments in
            guard arguments.count % 2 == 0 else { throw arguments.malformed() }
            for index in stride(from: 0, to: arguments.count, by: 2) {
                guard let format = OutputFormat(String(arguments.values[index])), case .format(let named) = format
                else { throw arguments.malformed() }
                options.formatQualities[named] = try arguments.int(index + 1, in: 1...100)
            }
        },
    ]

    static let effectRows: [OptionRow<Void>] = [
        row(
            "fill", "COLOUR, auto or blur, then 0 or 1 (fill transparent areas), then 0 or 1 (canvas w x h)",
            arguments: 1...3,
            canonical: { options in
                options.canvasFill.map { canvas in
                    let fill =
                        switch canvas.fill {
                        case .colour(let colour): hex(colour)
                        case .average: "auto"
                        case .blur: "blur"
                        }
                    return "\(fill):\(canvas.fillsTransparency ? 1 : 0):\(canvas.usesTargetSize ? 1 : 0)"
                }
            }
        ) { options, arguments in
            let fill: CanvasFillProcessor.Fill =
                switch arguments.values[0] {
                case "auto": .average
                case "blur": .blur
                default: .colour(try arguments.color(0) ?? RGBA(0, 0, 0, 0))
                }
            options.canvasFill = CanvasFill(
                fill: fill, fillsTransparency: try arguments.bool(1) ?? false,
                usesTargetSize: try arguments.bool(2) ?? true)
        },
        row("flatten", "RRGGBB or RRGGBBAA", canonical: { $0.flatten.map(hex) }) { $0.flatten = try $1.color(0) },
        row(
            "gblur", "RADIUS or RADIUS:SIGMA (radius 1 to 150)", arguments: 1...2,
            canonical: { $0.truncatedBlur.map { "\($0.radius):\(NumberText.canonical($0.sigma))" } }
        ) { options, arguments in
            let radius = try arguments.int(0, in: 1...150) ?? 1
            let sigma = try arguments.decimal(1, in: 0.01...150) ?? Double(radius)
            options.truncatedBlur = TruncatedBlur(radius: radius, sigma: sigma)
        },
        row(
            "wsharpen", "AMOUNT:RADIUS:LUMA (LUMA 0 or 1)", arguments: 3...3,
            canonical: { options in
                options.waveletSharpen.map {
                    "\(NumberText.canonical($0.amount)):\(NumberText.canonical($0.radius)):\($0.luminanceOnly ? 1 : 0)"
                }
            }
        ) { options, arguments in
            options.waveletSharpen = WaveletSharpen(
                amount: try arguments.decimal(0, in: -100...100) ?? 0,
                radius: try arguments.decimal(1, in: 0...100) ?? 0,
                luminanceOnly: try arguments.bool(2) ?? true)
        },
        row("sat", "a factor from 0 to 100", canonical: { $0.saturation.map(NumberText.canonical) }) {
            $0.saturation = try $1.decimal(0, in: 0...100)
        },
        row(
            "rgb", "R:G:B (percent shifts from -100 to 100)", arguments: 3...3,
            canonical: { $0.channelShift.map { "\($0.red):\($0.green):\($0.blue)" } }
        ) { options, arguments in
            let shifts = try (0..<3).map { try arguments.int($0, in: -100...100) ?? 0 }
            options.channelShift = ChannelShift(red: shifts[0], green: shifts[1], blue: shifts[2])
        },
        row(
            "colorize", "R:G:B:RRGGBB (percentages from 0 to 100, then the colour)", arguments: 4...4,
            canonical: { $0.colorize.map { "\($0.red):\($0.green):\($0.blue):\(hex($0.colour))" } }
        ) { options, arguments in
            let percents = try (0..<3).map { try arguments.int($0, in: 0...100) ?? 0 }
            options.colorize = Colorize(
                red: percents[0], green: percents[1], blue: percents[2], colour: try arguments.color(3) ?? RGBA(0, 0, 0)
            )
        },
        row(
            "curve", "ALL:RED:GREEN:BLUE, each x;y;x;y… from 0 to 255", arguments: 4...4,
            canonical: { options in
                options.curves.map { curves in
                    [curves.all, curves.red, curves.green, curves.blue].map {
                        $0.map(String.init).joined(separator: ";")
                    }
                    .joined(separator: ":")
                }
            }
        ) { options, arguments in
            let curves = try arguments.values.map { value in
                let points = value.split(separator: ";", omittingEmptySubsequences: false)
                let numbers = points.compactMap { NumberSpelling.any.integer($0, in: 0...255) }
                guard numbers.count == points.count, numbers.count % 2 == 0 else { throw arguments.malformed() }
                return numbers
            }
            options.curves = Curves(all: curves[0], red: curves[1], green: curves[2], blue: curves[3])
        },
        row("equalize", "0 or 1", canonical: { $0.equalize ? "1" : nil }) { $0.equalize = try $1.bool(0) ?? false },
        row(
            "noise", "AMOUNT or AMOUNT:SEED (amount from 0 to 100000, seed from 0)", arguments: 1...2,
            canonical: { $0.noise.map { "\($0.amount):\($0.seed)" } }
        ) { options, arguments in
            let amount = try arguments.int(0, in: NoiseProcessor.amountRange) ?? 0
            let seed = try arguments.int(1, in: 0...Int(UInt32.max)) ?? 0
            options.noise = Noise(amount: amount, seed: UInt32(seed))
        },
        row(
            "conv", "COLUMNS:NORMALIZE:K1:K2:… (an odd-sided kernel of at most 11 x 11)", arguments: 3...123,
            canonical: { options in
                options.convolution.map { conv in
                    "\(conv.columns):\(conv.normalize ? 1 : 0):"
                        + conv.kernel.map(NumberText.canonical).joined(separator: ":")
                }
            }
        ) { options, arguments in
            let columns = try arguments.int(0, in: 1...11) ?? 1
            let normalize = try arguments.bool(1) ?? false
            let kernel = try (2..<arguments.count).map { try arguments.decimal($0, in: -100_000...100_000) ?? 0 }
            guard (try? ConvolutionProcessor(kernel: kernel, columns: columns, normalize: normalize)) != nil else {
                throw arguments.malformed()
            }
            options.convolution = Convolution(kernel: kernel, columns: columns, normalize: normalize)
        },
        row(
            "order",
            "colour effects joined by : (gray, bright, contrast, sat, rgb, colorize, equalize, curve, noise, conv)",
            arguments: 1...ColourEffect.allCases.count,
            canonical: { options in
                let order = options.appliedEffectOrder
                return order.isEmpty ? nil : order.map(\.rawValue).joined(separator: ":")
            }
        ) { options, arguments in
            let effects = arguments.values.compactMap { ColourEffect(rawValue: String($0)) }
            guard effects.count == arguments.count, Set(effects).count == effects.count else {
                throw arguments.malformed()
            }
            options.effectOrder = effects
        },
    ]

    /// `adj`'s flags, in one order.
    var canonicalAdjustmentFlags: String? {
        let flags = [
            ("clamp", adjustments.clampsTargetToImage), ("floor", adjustments.roundsSidesDown),
            ("floorup", adjustments.roundsEnlargedSidesDown),
            ("whole", adjustments.cropsWholePixels), ("srcw", adjustments.usesSourceWidth),
            ("srch", adjustments.usesSourceHeight),
        ].filter(\.1).map(\.0)
        return flags.isEmpty ? nil : flags.joined(separator: ":")
    }
}

extension Int {
    /// The number as text, nil when 0.
    fileprivate var nonZero: String? { self == 0 ? nil : String(self) }
}
