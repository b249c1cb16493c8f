import Foundation

/// Imago's filter and output rows: `blur`, `sharpen`, `wm`, `pr`, `maxb`, `exp`, `strip`.
extension ProcessingOptions {
    static let watermarkExpected =
        "OPACITY:POSITION[:SCALE] (opacity 0 to 1, position as g without sm, scale 0 to 1), then any of off:X:Y, "
        + "grid:GAP_X:GAP_Y or spread:h|v|hv, fit:W|-:H|- (fractions of the output; then even: the box rounded to "
        + "even pixels, as imgproxy), fade:LEVELS (0 to 255), src:URL (base64url)"

    static let filterRows: [OptionRow<Void>] = [
        row("blur", "a sigma from 0.3 to 100", canonical: { $0.blur.map(number) }) {
            $0.blur = try $1.decimal(0, in: 0.3...100)
        },
        row("sharpen", "a sigma from 0.3 to 10", canonical: { $0.sharpen.map(number) }) {
            $0.sharpen = try $1.decimal(0, in: 0.3...10)
        },
        row(
            "wm", watermarkExpected, arguments: 2...24,
            canonical: { options in options.watermark.map { canonicalWatermark($0, dpr: options.dpr) } }
        ) { options, arguments in
            options.watermark = try watermark(arguments)
        },
        row(
            "ninepatch", "the URL of a nine-patch image (base64url)",
            canonical: { $0.ninePatch.map(Base64URLText.encode) }
        ) { options, arguments in
            guard let url = Base64URLText.decode(arguments[0] ?? ""), !url.isEmpty else { throw arguments.malformed() }
            options.ninePatch = url
        },
    ]

    static let outputRows: [OptionRow<Void>] = [
        row("pr", "preset names joined by :", arguments: 1...16, canonical: { _ in nil }) { options, arguments in
            options.presets = arguments.values.map(String.init)
        },
        row("maxb", "a number of bytes from 1", canonical: { $0.maxBytes.map(String.init) }) {
            $0.maxBytes = try $1.int(0, in: 1...2_000_000_000)
        },
        row("exp", "Unix seconds", canonical: { $0.expires.map(String.init) }) {
            $0.expires = try $1.int(0, in: 0...9_999_999_999)
        },
        row("strip", "0 or 1", canonical: { $0.strip ? nil : "0" }) { $0.strip = try $1.bool(0) ?? true },
    ]
}

/// `wm`'s parts: the opacity, the position and the scale, then named parts for what only some grammars say.
extension ProcessingOptions {
    static func watermark(_ arguments: OptionArguments) throws -> Watermark {
        let opacity = try arguments.decimal(0, in: 0...1, expected: watermarkExpected) ?? 0
        let (position, taken) = try arguments.gravity(at: 1, allowsSmart: false, expected: watermarkExpected)
        var index = 1 + taken
        var scale: Double?
        if let text = arguments[index], text.first?.isNumber == true {
            guard let value = try arguments.decimal(index, in: 0...1, expected: watermarkExpected), value > 0 else {
                throw arguments.malformed(watermarkExpected)
            }
            (scale, index) = (value, index + 1)
        }
        var mark = Watermark(opacity: opacity, position: position, scale: scale)
        /// The part after the name, as a fraction bound of `fit` (`-`: none).
        func bound(_ at: Int) throws -> Double? {
            arguments[at] == "-" ? nil : try arguments.decimal(at, in: 0.0001...100, expected: watermarkExpected)
        }
        while let name = arguments[index] {
            let width = ["off": 3, "grid": 3, "spread": 2, "fit": 3, "even": 1, "fade": 2, "src": 2][String(name)] ?? 0
            guard width > 0, index + width <= arguments.count else { throw arguments.malformed(watermarkExpected) }
            switch name {
            case "off":
                mark.offset = Offset(
                    x: try arguments.decimal(index + 1, in: -99_999...99_999) ?? 0,
                    y: try arguments.decimal(index + 2, in: -99_999...99_999) ?? 0)
            case "grid":
                mark.tiling = .grid(
                    gapX: try arguments.int(index + 1, in: 0...99_999) ?? 0,
                    gapY: try arguments.int(index + 2, in: 0...99_999) ?? 0)
            case "spread":
                guard let sides = arguments[index + 1], ["h", "v", "hv"].contains(sides) else {
                    throw arguments.malformed(watermarkExpected)
                }
                mark.tiling = .spread(horizontal: sides.contains("h"), vertical: sides.contains("v"))
            case "fit":
                (mark.fitWidth, mark.fitHeight) = (try bound(index + 1), try bound(index + 2))
                guard mark.fitWidth != nil || mark.fitHeight != nil else {
                    throw arguments.malformed(watermarkExpected)
                }
            case "even":
                mark.fitRoundsToEven = true
            case "fade":
                mark.alphaReduction = try arguments.int(index + 1, in: 0...255) ?? 0
            default:
                guard let url = Base64URLText.decode(arguments[index + 1] ?? ""), !url.isEmpty else {
                    throw arguments.malformed(watermarkExpected)
                }
                mark.source = url
            }
            index += width
        }
        guard !mark.fitRoundsToEven || mark.fitWidth != nil || mark.fitHeight != nil else {
            throw arguments.malformed(watermarkExpected)
        }
        return mark
    }

    /// `wm` as written back (pixels after `dpr`): its named parts only when they are set.
    static func canonicalWatermark(_ mark: Watermark, dpr: Double) -> String {
        var text = "\(number(mark.opacity)):\(mark.position.code)" + (mark.scale.map { ":\(number($0))" } ?? "")
        if let offset = mark.offset.canonical(dpr) { text += ":off:\(offset)" }
        switch mark.tiling {
        case .grid(let gapX, let gapY): text += ":grid:\(scaled(gapX, dpr)):\(scaled(gapY, dpr))"
        case .spread(let horizontal, let vertical): text += ":spread:" + (horizontal ? "h" : "") + (vertical ? "v" : "")
        case nil: break
        }
        if mark.fitWidth != nil || mark.fitHeight != nil {
            text += ":fit:\(mark.fitWidth.map(number) ?? "-"):\(mark.fitHeight.map(number) ?? "-")"
            if mark.fitRoundsToEven { text += ":even" }
        }
        if mark.alphaReduction != 0 { text += ":fade:\(mark.alphaReduction)" }
        if let source = mark.source { text += ":src:" + Base64URLText.encode(source) }
        return text
    }
}

/// base64url without padding (RFC 4648 §5), for a URL inside an option's value.
enum Base64URLText {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) }
    }
}
