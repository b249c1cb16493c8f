/// Imago's colour rows (issue 26, thumbor's filters): `gray`, `bright`, `contrast`, `round`.
extension ProcessingOptions {
    /// `round`: corners rounded to a quarter ellipse, outside of it `background`.
    public struct RoundCorners: Sendable, Hashable {
        /// Radii in pixels (after `dpr`, like `pad`).
        public var radiusX: Int, radiusY: Int
        /// What the cut corners become (alpha 0: transparent).
        public var background: RGBA
        /// Corners of these radii.
        public init(radiusX: Int, radiusY: Int, background: RGBA = RGBA(255, 255, 255)) {
            (self.radiusX, self.radiusY, self.background) = (radiusX, radiusY, background)
        }
    }

    static let colourRows: [OptionRow<Void>] = [
        row("gray", "0 or 1", canonical: { $0.grayscale ? "1" : nil }) { $0.grayscale = try $1.bool(0) ?? false },
        row("bright", "a whole number from -100 to 100", canonical: { $0.brightness.map(String.init) }) {
            $0.brightness = try $1.int(0, in: -100...100).flatMap { $0 == 0 ? nil : $0 }
        },
        row("contrast", "a whole number from -100 to 100", canonical: { $0.contrast.map(String.init) }) {
            $0.contrast = try $1.int(0, in: -100...100).flatMap { $0 == 0 ? nil : $0 }
        },
        row(
            "round", "R, RX:RY or RX:RY:RRGGBBAA (radii 1 to 100000 pixels)", arguments: 1...3,
            canonical: { options in
                options.roundCorners.map { "\($0.radiusX):\($0.radiusY):\(hex($0.background))" }
            }
        ) { options, arguments in
            let radiusX = try arguments.int(0, in: 1...100_000) ?? 1
            var corners = RoundCorners(radiusX: radiusX, radiusY: try arguments.int(1, in: 1...100_000) ?? radiusX)
            if let colour = try arguments.color(2) { corners.background = colour }
            options.roundCorners = corners
        },
    ]
}
