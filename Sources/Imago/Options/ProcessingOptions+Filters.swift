/// The table's filter and output entries: `blur`, `sharpen`, `wm`, `pr`, `maxb`, `exp`, `strip`.
extension ProcessingOptions {
    static let filterEntries: [Entry] = [
        number(
            "blur", "a sigma from 0.3 to 100", read: { value, _ in decimal(value, in: 0.3...100) },
            set: { $0.blur = $1 }, canonical: { $0.blur.map(number) }),
        number(
            "sharpen", "a sigma from 0.3 to 10", read: { value, _ in decimal(value, in: 0.3...10) },
            set: { $0.sharpen = $1 }, canonical: { $0.sharpen.map(number) }),
        Entry(
            key: "wm", expected: watermarkExpected,
            parse: { options, value, item, _ in options.watermark = try watermark(value, item) },
            canonical: { options in
                options.watermark.map { mark in
                    "\(number(mark.opacity)):\(mark.position.code)" + (mark.scale.map { ":\(number($0))" } ?? "")
                }
            }),
    ]

    static let outputEntries: [Entry] = [
        Entry(
            key: "pr", expected: "preset names joined by :",
            parse: { options, value, item, context in
                let names = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                for name in names where name.isEmpty || context.presets[name] == nil {
                    throw OptionError(
                        item: OptionError.shown(item),
                        message: "option \"\(OptionError.shown(item))\": unknown preset \""
                            + OptionError.shown(Substring(name)) + "\" (pr names the configuration's string presets)")
                }
                options.presets = names
            }, canonical: { _ in nil }),
        number(
            "maxb", "a number of bytes from 1",
            read: { value, _ in integer(value, in: 1...2_000_000_000).map(Double.init) },
            set: { $0.maxBytes = Int($1) }, canonical: { $0.maxBytes.map(String.init) }),
        number(
            "exp", "Unix seconds", read: { value, _ in integer(value, in: 0...9_999_999_999).map(Double.init) },
            set: { $0.expires = Int($1) }, canonical: { $0.expires.map(String.init) }),
        Entry(
            key: "strip", expected: "0 or 1",
            parse: { options, value, item, _ in options.strip = try flag(value, item) },
            canonical: { $0.strip ? nil : "0" }),
    ]

    static let watermarkExpected = "OPACITY:POSITION[:SCALE] (opacity 0 to 1, position as g without sm, scale 0 to 1)"

    static func watermark(_ value: Substring, _ item: Substring) throws -> Watermark {
        var parts = value.split(separator: ":", omittingEmptySubsequences: false)[...]
        func fraction(_ part: Substring?, open: Bool) throws -> Double {
            guard let part, canonicalSpelling(of: part) == nil, let value = decimal(part, in: 0...1),
                !open || value > 0
            else { throw OptionError.expected(item, watermarkExpected) }
            return value
        }
        let opacity = try fraction(parts.popFirst(), open: false)
        guard let first = parts.popFirst() else { throw OptionError.expected(item, watermarkExpected) }
        var position = first
        if first == "fp" {
            guard parts.count >= 2 else { throw OptionError.expected(item, watermarkExpected) }
            let x = parts.removeFirst()
            let y = parts.removeFirst()
            position = Substring("fp:\(x):\(y)")
        }
        let gravity = try gravity(position, item, allowsSmart: false)
        let scale = try parts.isEmpty ? nil : fraction(parts.popFirst(), open: true)
        guard parts.isEmpty else { throw OptionError.expected(item, watermarkExpected) }
        return Watermark(opacity: opacity, position: gravity, scale: scale)
    }
}
