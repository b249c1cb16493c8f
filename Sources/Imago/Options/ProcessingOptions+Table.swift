/// The grammar's one table: each key with its parser and its canonical form (imgproxy's shape).
extension ProcessingOptions {
    /// One option: its key, how its value is read into the options, and how it is written in `canonical`
    /// (nil: left out, because it is the default or folded into another key).
    public struct Entry: Sendable {
        /// The key (`w`, `crop`, …).
        public let key: String
        /// What the values look like, for errors and documentation.
        public let expected: String
        let parse: @Sendable (inout ProcessingOptions, Substring, Substring, Context) throws -> Void
        /// The canonical value, or nil when left out of the canonical form.
        public let canonical: @Sendable (ProcessingOptions) -> String?
    }

    /// Every option, in canonical order.
    public static let table: [Entry] = basicEntries + geometryEntries + filterEntries + colourEntries + outputEntries

    static func entry(_ key: String) -> Entry { table.first { $0.key == key }! }

    /// An entry whose value is one number (`canonical` spelling enforced), read by `read`.
    static func number(
        _ key: String, _ expected: String, read: @escaping @Sendable (Substring, Context) -> Double?,
        set: @escaping @Sendable (inout ProcessingOptions, Double) -> Void,
        canonical: @escaping @Sendable (ProcessingOptions) -> String?
    ) -> Entry {
        Entry(
            key: key, expected: expected,
            parse: { options, value, item, context in
                try requireCanonical(value, key: Substring(key), item: item)
                guard let number = read(value, context) else { throw OptionError.expected(item, expected) }
                set(&options, number)
            }, canonical: canonical)
    }

    static let basicEntries: [Entry] = [
        number(
            "w", "a whole number of pixels from 1 to the output limit",
            read: { value, _ in integer(value, in: 1...999_999_999).map(Double.init) },
            set: { $0.width = Int($1) }, canonical: { "\($0.outputWidth.map(String.init) ?? "-")" }),
        number(
            "h", "a whole number of pixels from 1 to the output limit",
            read: { value, _ in integer(value, in: 1...999_999_999).map(Double.init) },
            set: { $0.height = Int($1) }, canonical: { "\($0.outputHeight.map(String.init) ?? "-")" }),
        Entry(
            key: "fit", expected: "contain, cover, fill, auto, adaptive or outside",
            parse: { options, value, item, _ in
                guard let fit = Fit(rawValue: String(value)) else {
                    throw OptionError.expected(item, "contain, cover, fill, auto, adaptive or outside")
                }
                options.fit = fit
            }, canonical: { $0.fit.rawValue }),
        Entry(
            key: "enlarge", expected: "0 or 1",
            parse: { options, value, item, _ in options.enlarge = try flag(value, item) },
            canonical: { $0.enlarge ? "1" : "0" }),
        Entry(
            key: "f", expected: OutputFormat.names.joined(separator: ", ") + " or auto",
            parse: { options, value, item, _ in
                guard let format = OutputFormat(String(value)) else {
                    throw OptionError.expected(item, OutputFormat.names.joined(separator: ", ") + " or auto")
                }
                options.format = format
            }, canonical: { $0.format?.description ?? "-" }),
        number(
            "q", "a whole number from 1 to 100", read: { value, _ in integer(value, in: 1...100).map(Double.init) },
            set: { $0.quality = Int($1) }, canonical: { $0.quality.map(String.init) ?? "-" }),
        number(
            "frame", "a frame index from 0", read: { value, _ in integer(value, in: 0...99_999).map(Double.init) },
            set: { $0.frame = Int($1) }, canonical: { $0.frame.map(String.init) ?? "-" }),
        number(
            "dpr", "a number from 1 to 4", read: { value, _ in decimal(value, in: 1...4) },
            set: { $0.dpr = $1 }, canonical: { _ in nil }),
    ]

    /// `0` or `1`.
    static func flag(_ value: Substring, _ item: Substring) throws -> Bool {
        guard value == "0" || value == "1" else { throw OptionError.expected(item, "0 or 1") }
        return value == "1"
    }

    /// `:`-separated parts, each one canonical number read by `read`; `counts` are the allowed numbers of parts.
    static func parts<T>(
        _ value: Substring, _ item: Substring, counts: Set<Int>, expected: String,
        read: (Substring) -> T?
    ) throws -> [T] {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard counts.contains(parts.count) else { throw OptionError.expected(item, expected) }
        return try parts.map { part in
            if let canonical = canonicalSpelling(of: part) {
                throw OptionError(
                    item: OptionError.shown(item),
                    message: "option \"\(OptionError.shown(item))\": write \(canonical) for \(OptionError.shown(part))")
            }
            guard let parsed = read(part) else { throw OptionError.expected(item, expected) }
            return parsed
        }
    }
}
