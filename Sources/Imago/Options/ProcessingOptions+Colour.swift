/// The table's colour entries (issue 26, thumbor's filters): `gray`, `bright`, `contrast`, `round`.
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

    static let roundExpected = "R, RX:RY or RX:RY:RRGGBBAA (radii 1 to 100000 pixels)"

    static let colourEntries: [Entry] = [
        Entry(
            key: "gray", expected: "0 or 1",
            parse: { options, value, item, _ in options.grayscale = try flag(value, item) },
            canonical: { $0.grayscale ? "1" : nil }),
        Entry(
            key: "bright", expected: "a whole number from -100 to 100",
            parse: { options, value, item, _ in
                options.brightness = try signedPercent(value, item, "a whole number from -100 to 100")
            }, canonical: { $0.brightness.map(String.init) }),
        Entry(
            key: "contrast", expected: "a whole number from -100 to 100",
            parse: { options, value, item, _ in
                options.contrast = try signedPercent(value, item, "a whole number from -100 to 100")
            }, canonical: { $0.contrast.map(String.init) }),
        Entry(
            key: "round", expected: roundExpected,
            parse: { options, value, item, _ in options.roundCorners = try roundCorners(value, item) },
            canonical: { options in
                options.roundCorners.map { "\($0.radiusX):\($0.radiusY):\(hex($0.background))" }
            }),
    ]

    /// `N` or `-N` within −100…100, one spelling (no `+`, no leading zeros, no `-0`); 0 means none (nil).
    static func signedPercent(_ value: Substring, _ item: Substring, _ expected: String) throws -> Int? {
        let negative = value.hasPrefix("-")
        let digits = negative ? value.dropFirst() : value
        guard let magnitude = integer(digits, in: 0...100), canonicalSpelling(of: digits) == nil,
            !(negative && magnitude == 0)
        else { throw OptionError.expected(item, expected) }
        return magnitude == 0 ? nil : (negative ? -magnitude : magnitude)
    }

    static func roundCorners(_ value: Substring, _ item: Substring) throws -> RoundCorners {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { throw OptionError.expected(item, roundExpected) }
        let radii = try parts.prefix(2).map { part -> Int in
            guard let radius = integer(part, in: 1...100_000), canonicalSpelling(of: part) == nil else {
                throw OptionError.expected(item, roundExpected)
            }
            return radius
        }
        var corners = RoundCorners(radiusX: radii[0], radiusY: radii.count > 1 ? radii[1] : radii[0])
        if parts.count == 3 {
            guard let colour = RGBA(hex: parts[2]) else { throw OptionError.expected(item, roundExpected) }
            corners.background = colour
        }
        return corners
    }
}
