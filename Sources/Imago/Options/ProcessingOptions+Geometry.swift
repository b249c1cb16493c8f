/// The table's geometry entries: `crop`, `g`, `pad`, `ext`, `bg`, `rot`, `flip`, `trim`.
extension ProcessingOptions {
    static let geometryEntries: [Entry] = [
        Entry(
            key: "trim", expected: "a threshold from 0 to 255",
            parse: { options, value, item, _ in
                try requireCanonical(value, key: "trim", item: item)
                guard let threshold = integer(value, in: 0...255) else {
                    throw OptionError.expected(item, "a threshold from 0 to 255")
                }
                options.trim = threshold
            }, canonical: { $0.trim.map(String.init) }),
        Entry(
            key: "crop", expected: cropExpected,
            parse: { options, value, item, _ in options.crop = try crop(value, item) },
            canonical: { options in
                switch options.crop {
                case .region(let r)?: "\(r.x):\(r.y):\(r.width):\(r.height)"
                case .aspect(let width, let height)?: "\(width):\(height)"
                case .window(let width, let height, let gravity)?: "\(width):\(height):\(gravity.code)"
                case nil: nil
                }
            }),
        Entry(
            key: "g", expected: gravityExpected,
            parse: { options, value, item, _ in options.gravity = try gravity(value, item, allowsSmart: true) },
            canonical: { $0.gravity == .center ? nil : $0.gravity.code }),
        Entry(
            key: "rot", expected: "90, 180 or 270",
            parse: { options, value, item, _ in
                guard let degrees = integer(value, in: 90...270), [90, 180, 270].contains(degrees),
                    canonicalSpelling(of: value) == nil
                else { throw OptionError.expected(item, "90, 180 or 270") }
                options.rotate = degrees
            }, canonical: { $0.rotate.map(String.init) }),
        Entry(
            key: "flip", expected: "h, v or hv",
            parse: { options, value, item, _ in
                guard let flip = Flip(rawValue: String(value)) else { throw OptionError.expected(item, "h, v or hv") }
                options.flip = flip
            }, canonical: { $0.flip?.rawValue }),
        Entry(
            key: "pad", expected: "N or T:R:B:L, whole pixels",
            parse: { options, value, item, _ in
                let sides = try parts(
                    value, item, counts: [1, 4], expected: "N or T:R:B:L, whole pixels from 0",
                    read: { integer($0, in: 0...999_999) })
                options.pad =
                    sides.count == 1
                    ? Padding(top: sides[0], right: sides[0], bottom: sides[0], left: sides[0])
                    : Padding(top: sides[0], right: sides[1], bottom: sides[2], left: sides[3])
                if options.pad == Padding(top: 0, right: 0, bottom: 0, left: 0) { options.pad = nil }
            },
            canonical: { options in options.outputPadding.map { "\($0.top):\($0.right):\($0.bottom):\($0.left)" } }),
        Entry(
            key: "ext", expected: "0 or 1",
            parse: { options, value, item, _ in options.extend = try flag(value, item) },
            canonical: { $0.extend ? "1" : nil }),
        Entry(
            key: "bg", expected: "RRGGBB or RRGGBBAA",
            parse: { options, value, item, _ in
                guard let color = RGBA(hex: value) else { throw OptionError.expected(item, "RRGGBB or RRGGBBAA") }
                options.background = color
            }, canonical: { $0.background.map(hex) }),
    ]

    static let cropExpected =
        "X:Y:W:H (whole numbers are pixels, 0.5 a fraction), W:H (an aspect ratio) or W:H:G (a window placed by G)"
    static let gravityExpected = "c, n, s, e, w, ne, nw, se, sw, fp:X:Y (fractions 0 to 1) or sm"

    /// `RRGGBBAA`, lowercase.
    static func hex(_ color: RGBA) -> String {
        [color.r, color.g, color.b, color.a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func crop(_ value: Substring, _ item: Substring) throws -> Crop {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let width = integer(parts[0], in: 1...100_000), let height = integer(parts[1], in: 1...100_000),
                canonicalSpelling(of: parts[0]) == nil, canonicalSpelling(of: parts[1]) == nil
            else { throw OptionError.expected(item, cropExpected) }
            return .aspect(width: width, height: height)
        }
        if parts.count >= 3, parts[2].first?.isLetter == true {
            let size = try parts.prefix(2).map { part -> CropValue in
                if part.contains(".") {
                    guard let fraction = decimal(part, in: 0...1), fraction > 0 else {
                        throw OptionError.expected(item, cropExpected)
                    }
                    return .fraction(fraction)
                }
                guard let pixels = integer(part, in: 1...999_999_999), canonicalSpelling(of: part) == nil else {
                    throw OptionError.expected(item, cropExpected)
                }
                return .pixels(pixels)
            }
            let gravity = try gravity(parts[2...].joined(separator: ":")[...], item, allowsSmart: true)
            return .window(width: size[0], height: size[1], gravity: gravity)
        }
        guard parts.count == 4 else { throw OptionError.expected(item, cropExpected) }
        let values = try parts.enumerated().map { index, part -> CropValue in
            let negative = part.hasPrefix("-") && index < 2
            let digits = negative ? part.dropFirst() : part
            if digits.contains(".") {
                guard let fraction = decimal(digits, in: 0...1), index < 2 || fraction > 0 else {
                    throw OptionError.expected(item, cropExpected)
                }
                return .fraction(negative ? -fraction : fraction)
            }
            guard let pixels = integer(digits, in: (index < 2 ? 0 : 1)...999_999_999),
                canonicalSpelling(of: digits) == nil
            else { throw OptionError.expected(item, cropExpected) }
            return .pixels(negative ? -pixels : pixels)
        }
        return .region(CropRegion(x: values[0], y: values[1], width: values[2], height: values[3]))
    }

    static func gravity(_ value: Substring, _ item: Substring, allowsSmart: Bool) throws -> Gravity {
        let expected = allowsSmart ? gravityExpected : "c, n, s, e, w, ne, nw, se, sw or fp:X:Y"
        if value.hasPrefix("fp:") {
            let point = try parts(
                value.dropFirst(3), item, counts: [2], expected: expected, read: { decimal($0, in: 0...1) })
            return .focusPoint(x: point[0], y: point[1])
        }
        guard let gravity = Gravity(code: String(value)), allowsSmart || gravity != .smart else {
            throw OptionError.expected(item, expected)
        }
        return gravity
    }
}
