/// The options imgproxy's and thumbor's URLs ask for beyond Imago's first set (issue 35): their value types, and
/// their values after `dpr`.
extension ProcessingOptions {
    /// An offset from where a gravity places something: pixels (before `dpr`) when a value's magnitude is 1 or
    /// more, else a fraction of the side; positive away from the edge the gravity names.
    public struct Offset: Sendable, Hashable {
        public var x: Double, y: Double
        /// An offset of (`x`, `y`).
        public init(x: Double = 0, y: Double = 0) { (self.x, self.y) = (x, y) }
        /// Whether it moves nothing.
        public var isZero: Bool { x == 0 && y == 0 }
        /// Pixel values multiplied by `dpr`, fractions kept.
        func scaled(_ dpr: Double) -> (x: Double, y: Double) {
            func one(_ value: Double) -> Double { abs(value) >= 1 ? (value * dpr).rounded() : value }
            return (one(x), one(y))
        }
        /// `X:Y` after `dpr`, or nil when zero.
        func canonical(_ dpr: Double) -> String? {
            guard !isZero else { return nil }
            let (x, y) = scaled(dpr)
            return "\(NumberText.canonical(x)):\(NumberText.canonical(y))"
        }
    }

    /// `scale`: factors along x and y on the image after the resize, and how its sides are rounded.
    public struct Scale: Sendable, Hashable {
        public var x: Double, y: Double
        public var rounding: ScaleProcessor.Rounding
        /// A scale.
        public init(x: Double, y: Double, rounding: ScaleProcessor.Rounding = .nearest) {
            (self.x, self.y, self.rounding) = (x, y, rounding)
        }
    }

    /// `trim`'s rule besides its threshold: the colour trimmed, how a difference is measured, and whether opposite
    /// sides are cut alike.
    public struct TrimRule: Sendable, Hashable {
        public var reference: TrimProcessor.Reference = .topLeft
        public var distance: TrimProcessor.Distance = .channel
        public var equalHorizontal = false, equalVertical = false
        /// Imago's default rule: the top-left colour, per channel.
        public init() {}
    }

    /// `fill`: what fills the canvas, whether the image's transparent areas take it, and whether the canvas is
    /// `w` × `h` (else the image's own size).
    public struct CanvasFill: Sendable, Hashable {
        public var fill: CanvasFillProcessor.Fill
        public var fillsTransparency: Bool
        public var usesTargetSize: Bool
        /// A fill.
        public init(fill: CanvasFillProcessor.Fill, fillsTransparency: Bool = false, usesTargetSize: Bool = true) {
            (self.fill, self.fillsTransparency, self.usesTargetSize) = (fill, fillsTransparency, usesTargetSize)
        }
    }

    /// `gblur`: a Gaussian of `sigma` cut at `radius` pixels.
    public struct TruncatedBlur: Sendable, Hashable {
        public var radius: Int, sigma: Double
        /// A blur.
        public init(radius: Int, sigma: Double) { (self.radius, self.sigma) = (radius, sigma) }
    }

    /// `wsharpen`: thumbor's wavelet sharpen.
    public struct WaveletSharpen: Sendable, Hashable {
        public var amount: Double, radius: Double, luminanceOnly: Bool
        /// A sharpen.
        public init(amount: Double, radius: Double, luminanceOnly: Bool) {
            (self.amount, self.radius, self.luminanceOnly) = (amount, radius, luminanceOnly)
        }
    }

    /// `noise`: thumbor's noise, `amount` its spread, `seed` glibc's `random()` seed.
    public struct Noise: Sendable, Hashable {
        public var amount: Int, seed: UInt32
        /// Noise.
        public init(amount: Int, seed: UInt32 = 0) { (self.amount, self.seed) = (amount, seed) }
    }

    /// `rgb`: percent shifts of each channel.
    public struct ChannelShift: Sendable, Hashable {
        public var red: Int, green: Int, blue: Int
        /// Shifts.
        public init(red: Int, green: Int, blue: Int) { (self.red, self.green, self.blue) = (red, green, blue) }
    }

    /// `colorize`: each channel moved towards `colour` by a percentage.
    public struct Colorize: Sendable, Hashable {
        public var red: Int, green: Int, blue: Int
        public var colour: RGBA
        /// A colorize.
        public init(red: Int, green: Int, blue: Int, colour: RGBA) {
            (self.red, self.green, self.blue, self.colour) = (red, green, blue, colour)
        }
    }

    /// `curve`: the curve for every channel, then each channel's own, as points x, y, x, y, … from 0 to 255.
    public struct Curves: Sendable, Hashable {
        public var all: [Int], red: [Int], green: [Int], blue: [Int]
        /// Curves.
        public init(all: [Int], red: [Int], green: [Int], blue: [Int]) {
            (self.all, self.red, self.green, self.blue) = (all, red, green, blue)
        }
        /// The four as `CurveProcessor` takes them.
        var processor: CurveProcessor {
            get throws {
                func points(_ flat: [Int]) -> CurveProcessor.Curve {
                    stride(from: 0, to: flat.count - 1, by: 2).map { (x: flat[$0], y: flat[$0 + 1]) }
                }
                return try CurveProcessor(all: points(all), red: points(red), green: points(green), blue: points(blue))
            }
        }
    }

    /// `conv`: a kernel of `columns` entries a row.
    public struct Convolution: Sendable, Hashable {
        public var kernel: [Double]
        public var columns: Int
        public var normalize: Bool
        /// A convolution.
        public init(kernel: [Double], columns: Int, normalize: Bool) {
            (self.kernel, self.columns, self.normalize) = (kernel, columns, normalize)
        }
    }

    /// `adjustments` after `dpr`: minimum sides and pixel offsets multiplied, as `w` and `h` are.
    public var outputAdjustments: ResizeAdjustments {
        var output = adjustments
        output.minimumWidth = Self.scaled(adjustments.minimumWidth, dpr)
        output.minimumHeight = Self.scaled(adjustments.minimumHeight, dpr)
        let offset = Offset(x: adjustments.offset.x, y: adjustments.offset.y).scaled(dpr)
        output.offset = (offset.x, offset.y)
        return output
    }

    /// The processors of the colour effects, in the fixed order (`ColourEffect`'s), keyed as in Imago's grammar.
    func effectProcessors() throws -> [(key: String, make: () throws -> any ImageProcessor)] {
        var made: [(key: String, make: () throws -> any ImageProcessor)] = []
        if grayscale { made.append(("gray", { GrayscaleProcessor() })) }
        if let brightness { made.append(("bright", { try BrightnessProcessor(amount: brightness) })) }
        if let contrast { made.append(("contrast", { try ContrastProcessor(amount: contrast) })) }
        if let saturation { made.append(("sat", { try SaturationProcessor(factor: saturation) })) }
        if let shift = channelShift {
            made.append(("rgb", { try ChannelShiftProcessor(red: shift.red, green: shift.green, blue: shift.blue) }))
        }
        if let colorize {
            made.append(
                (
                    "colorize",
                    {
                        try ColorizeProcessor(
                            redPercent: colorize.red, greenPercent: colorize.green, bluePercent: colorize.blue,
                            colour: colorize.colour)
                    }
                ))
        }
        if equalize { made.append(("equalize", { EqualizeProcessor() })) }
        if let curves { made.append(("curve", { try curves.processor })) }
        if let noise { made.append(("noise", { try NoiseProcessor(amount: noise.amount, seed: noise.seed) })) }
        if let conv = convolution {
            made.append(
                (
                    "conv",
                    { try ConvolutionProcessor(kernel: conv.kernel, columns: conv.columns, normalize: conv.normalize) }
                ))
        }
        return made
    }
}
