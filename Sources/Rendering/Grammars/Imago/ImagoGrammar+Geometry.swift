/// Imago's geometry rows: `trim`, `crop`, `g`, `rot`, `flip`, `pad`, `ext`, `bg`.
extension ProcessingOptions {
    static let cropExpected =
        "X:Y:W:H (whole numbers are pixels, 0.5 a fraction), W:H (an aspect ratio) or W:H:G (a window placed by G)"
    static let gravityExpected = "c, n, s, e, w, ne, nw, se, sw, fp:X:Y (fractions 0 to 1), sm or face"
    static let placementExpected = "c, n, s, e, w, ne, nw, se, sw or fp:X:Y"

    static let geometryRows: [OptionRow<Void>] = [
        row(
            "trim",
            "T[:REF[:DISTANCE[:EQUAL]]] (threshold 0 to 255, or 510 measured eu; REF tl, br or RRGGBB[AA]; "
                + "DISTANCE ch or eu; EQUAL h, v or hv)", arguments: 1...4,
            canonical: { $0.canonicalTrim }
        ) { options, arguments in
            var rule = TrimRule()
            if arguments.count > 1 {
                switch arguments.values[1] {
                case "tl": rule.reference = .topLeft
                case "br": rule.reference = .bottomRight
                default: rule.reference = .colour(try arguments.color(1) ?? RGBA(0, 0, 0))
                }
            }
            if arguments.count > 2 {
                guard let distance = ["ch": TrimProcessor.Distance.channel, "eu": .euclidean][arguments.values[2]]
                else { throw arguments.malformed() }
                rule.distance = distance
            }
            if arguments.count > 3 {
                let equal = arguments.values[3]
                guard ["h", "v", "hv"].contains(equal) else { throw arguments.malformed() }
                (rule.equalHorizontal, rule.equalVertical) = (equal.contains("h"), equal.contains("v"))
            }
            options.trim = try arguments.int(0, in: 0...(rule.distance == .euclidean ? 510 : 255))
            options.trimRule = rule
        },
        row("crop", cropExpected + ", then X:Y offsets", arguments: 2...5, canonical: { $0.canonicalCrop }) {
            $0.crop = try crop($1)
            $0.cropOffset = $1.count == 5 && $1.values[2] != "fp" ? try offset($1, from: 3) : Offset()
        },
        row(
            "g", gravityExpected + ", then X:Y offsets", arguments: 1...3,
            canonical: { $0.gravityOnFaces ? "face" : $0.canonicalGravity }
        ) { options, arguments in
            options.gravityOnFaces = arguments.values == ["face"]
            guard !options.gravityOnFaces else {
                options.gravity = .smart
                options.adjustments.offset = (0, 0)
                return
            }
            let (gravity, taken) = try arguments.gravity(at: 0, allowsSmart: true, expected: gravityExpected)
            let offset = try offset(arguments, from: taken)
            guard taken == arguments.count || (taken == 1 && gravity != .smart) else { throw arguments.malformed() }
            options.gravity = gravity
            options.adjustments.offset = (offset.x, offset.y)
        },
        row("rot", "90, 180 or 270", canonical: { $0.rotate.map(String.init) }) {
            guard let degrees = try $1.int(0, in: 90...270), degrees % 90 == 0 else { throw $1.malformed() }
            $0.rotate = degrees
        },
        row("flip", "h, v or hv", canonical: { $0.flip?.rawValue }) {
            guard let flip = Flip(rawValue: String($1.values[0])) else { throw $1.malformed() }
            $0.flip = flip
        },
        row(
            "pad", "N or T:R:B:L, whole pixels from 0", arguments: 1...4,
            canonical: { $0.outputPadding.map { "\($0.top):\($0.right):\($0.bottom):\($0.left)" } }
        ) { options, arguments in
            guard arguments.count == 1 || arguments.count == 4 else { throw arguments.malformed() }
            let sides = try (0..<arguments.count).map { try arguments.int($0, in: 0...999_999) ?? 0 }
            let pad =
                sides.count == 1
                ? Padding(top: sides[0], right: sides[0], bottom: sides[0], left: sides[0])
                : Padding(top: sides[0], right: sides[1], bottom: sides[2], left: sides[3])
            options.pad = pad == Padding(top: 0, right: 0, bottom: 0, left: 0) ? nil : pad
        },
        row(
            "ext", "0, 1 or 1:G (G where the image goes, as g without sm)", arguments: 1...4,
            canonical: { options in
                guard options.extend else { return nil }
                let offset = options.extendOffset.canonical(options.dpr).map { ":\($0)" } ?? ""
                return options.extendGravity.map { "1:\($0.code)\(offset)" } ?? "1"
            }
        ) {
            $0.extend = try $1.bool(0) ?? false
            guard $1.count > 1 else { return }
            let (gravity, taken) = try $1.gravity(at: 1, allowsSmart: false, expected: placementExpected)
            guard $0.extend, taken == $1.count - 1 || (taken == 1 && $1.count == 4) else { throw $1.malformed() }
            $0.extendGravity = gravity
            $0.extendOffset = try offset($1, from: 1 + taken)
        },
        row("bg", "RRGGBB or RRGGBBAA", canonical: { $0.background.map(hex) }) { $0.background = try $1.color(0) },
    ]

    /// Offsets `X:Y` from argument `start` (pixels, or fractions below 1), zero when left out.
    static func offset(_ arguments: OptionArguments, from start: Int) throws -> Offset {
        guard arguments.count > start else { return Offset() }
        guard arguments.count == start + 2 else { throw arguments.malformed() }
        return Offset(
            x: try arguments.decimal(start, in: -99_999...99_999) ?? 0,
            y: try arguments.decimal(start + 1, in: -99_999...99_999) ?? 0)
    }

    /// `g` as written back: the gravity, then its offsets after `dpr` when they move it.
    var canonicalGravity: String? {
        guard let offset = canonicalGravityOffset else { return gravity == .center ? nil : gravity.code }
        return "\(gravity.code):\(offset)"
    }

    /// `g`'s offsets after `dpr`, nil when zero.
    var canonicalGravityOffset: String? {
        Offset(x: adjustments.offset.x, y: adjustments.offset.y).canonical(dpr)
    }

    /// `trim` as written back: the threshold, then the rule when it is not the default.
    var canonicalTrim: String? {
        guard let trim else { return nil }
        guard trimRule != TrimRule() else { return String(trim) }
        let reference =
            switch trimRule.reference {
            case .topLeft: "tl"
            case .bottomRight: "br"
            case .colour(let colour): Self.hex(colour)
            }
        let equal = (trimRule.equalHorizontal ? "h" : "") + (trimRule.equalVertical ? "v" : "")
        return "\(trim):\(reference):\(trimRule.distance == .euclidean ? "eu" : "ch")"
            + (equal.isEmpty ? "" : ":\(equal)")
    }

    /// `RRGGBBAA`, lowercase.
    static func hex(_ color: RGBA) -> String {
        [color.r, color.g, color.b, color.a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The crop as `crop=` writes it; a window without its own gravity is placed by `g`.
    var canonicalCrop: String? {
        switch crop {
        case .region(let r)?: "\(r.x):\(r.y):\(r.width):\(r.height)"
        case .aspect(let width, let height)?: "\(width):\(height)"
        case .window(let width, let height, let placement)?:
            "\(width):\(height):\((placement ?? gravity).code)"
                + ((placement == nil ? canonicalGravityOffset : cropOffset.canonical(dpr)).map { ":\($0)" } ?? "")
        case nil: nil
        }
    }

    /// `X:Y:W:H`, `W:H` or `W:H:G`; a number with a decimal point is a fraction of the side.
    static func crop(_ arguments: OptionArguments) throws -> Crop {
        let values = arguments.values
        if values.count == 2 {
            guard let width = try arguments.int(0, in: 1...100_000), let height = try arguments.int(1, in: 1...100_000)
            else { throw arguments.malformed() }
            return .aspect(width: width, height: height)
        }
        if values[2].first?.isLetter == true {
            let size = try (0..<2).map { try cropValue(arguments, $0, signed: false) }
            let (gravity, taken) = try arguments.gravity(at: 2, allowsSmart: true, expected: cropExpected)
            guard taken == values.count - 2 || (taken == 1 && gravity != .smart && values.count == 5) else {
                throw arguments.malformed()
            }
            return .window(width: size[0], height: size[1], gravity: gravity)
        }
        guard values.count == 4 else { throw arguments.malformed() }
        let region = try (0..<4).map { try cropValue(arguments, $0, signed: $0 < 2) }
        return .region(CropRegion(x: region[0], y: region[1], width: region[2], height: region[3]))
    }

    /// A crop coordinate (`signed`: X and Y may be negative) or size: pixels, or a fraction when it has a point.
    static func cropValue(_ arguments: OptionArguments, _ index: Int, signed: Bool) throws -> CropValue {
        let text = arguments.values[index]
        if text.contains(".") {
            guard let fraction = try arguments.decimal(index, in: signed ? -1...1 : 0...1),
                signed || fraction > 0
            else { throw arguments.malformed() }
            return .fraction(fraction)
        }
        guard let pixels = try arguments.int(index, in: signed ? -999_999_999...999_999_999 : 1...999_999_999) else {
            throw arguments.malformed()
        }
        return .pixels(pixels)
    }
}
