/// Imago's filter and output rows: `blur`, `sharpen`, `wm`, `pr`, `maxb`, `exp`, `strip`.
extension ProcessingOptions {
    static let watermarkExpected = "OPACITY:POSITION[:SCALE] (opacity 0 to 1, position as g without sm, scale 0 to 1)"

    static let filterRows: [OptionRow<Void>] = [
        row("blur", "a sigma from 0.3 to 100", canonical: { $0.blur.map(number) }) {
            $0.blur = try $1.decimal(0, in: 0.3...100)
        },
        row("sharpen", "a sigma from 0.3 to 10", canonical: { $0.sharpen.map(number) }) {
            $0.sharpen = try $1.decimal(0, in: 0.3...10)
        },
        row(
            "wm", watermarkExpected, arguments: 2...5,
            canonical: { options in
                options.watermark.map { mark in
                    "\(number(mark.opacity)):\(mark.position.code)" + (mark.scale.map { ":\(number($0))" } ?? "")
                }
            }
        ) { options, arguments in
            let opacity = try arguments.decimal(0, in: 0...1) ?? 0
            let (position, taken) = try arguments.gravity(at: 1, allowsSmart: false, expected: watermarkExpected)
            let rest = arguments.count - 1 - taken
            guard rest <= 1 else { throw arguments.malformed() }
            var scale: Double?
            if rest == 1 {
                guard let value = try arguments.decimal(arguments.count - 1, in: 0...1), value > 0 else {
                    throw arguments.malformed()
                }
                scale = value
            }
            options.watermark = Watermark(opacity: opacity, position: position, scale: scale)
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
