/// Imago's own grammar: comma-separated `key=value` items in any order, or `-` for none; a value's parts are
/// separated by `:` (`w=300,h=200,fit=cover,g=fp:0.3:0.7`). It is also the canonical form every grammar's options
/// are written in (`ProcessingOptions.canonical`), so each row says how the model holds it.
extension ProcessingOptions {
    /// The grammar: one row per key, in canonical order.
    public static let grammar = OptionGrammar<Void>(
        style: OptionStyle(
            grammar: "", noun: "option", valueSeparator: "=", numbers: .any, booleans: ["0": false, "1": true]),
        rows: basicRows + geometryRows + filterRows + colourRows + outputRows + resizeRows + effectRows + mediaRows
            + answerRows,
        laterOptionsOverride: false)

    /// The items of `segment`: `-` is none; each item must be `key=value`.
    public static func items(of segment: Substring) throws -> [OptionItem] {
        guard segment != "-" else { return [] }
        guard !segment.isEmpty else {
            throw OptionError(.malformed, item: "", message: "empty options (use - for none)")
        }
        return try segment.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard item.contains("=") else {
                throw OptionError(
                    .malformed, item: OptionError.shown(item),
                    message: "option \"\(OptionError.shown(item))\" is not key=value")
            }
            return OptionItem(item, separator: "=", argumentSeparator: ":")
        }
    }

    /// A row of Imago's grammar: the key it reads and writes, and how the model holds it in the canonical form.
    static func row(
        _ key: String, _ expected: String, arguments: ClosedRange<Int> = 1...1,
        canonical: @escaping @Sendable (ProcessingOptions) -> String?,
        apply: @escaping @Sendable (inout ProcessingOptions, OptionArguments) throws -> Void
    ) -> OptionRow<Void> {
        OptionRow(
            [key], expected: expected, arguments: arguments, writes: [key], readsPresets: key == "pr",
            canonical: canonical,
            apply: { reading, arguments in
                // Every part is required: an empty one (`w=`, `pad=1::2:3`) is a mistake, not a default.
                guard arguments.values.allSatisfy({ !$0.isEmpty }) else { throw arguments.malformed() }
                try apply(&reading.options, arguments)
            })
    }

    static let basicRows: [OptionRow<Void>] = [
        row(
            "w", "a whole number of pixels from 1 to the output limit",
            canonical: { $0.outputWidth.map(String.init) ?? "-" }
        ) {
            $0.width = try $1.int(0, in: 1...999_999_999)
        },
        row(
            "h", "a whole number of pixels from 1 to the output limit",
            canonical: { $0.outputHeight.map(String.init) ?? "-" }
        ) {
            $0.height = try $1.int(0, in: 1...999_999_999)
        },
        row("fit", "contain, cover, fill, auto, adaptive, outside or adaptive-outside", canonical: { $0.fit.rawValue })
        {
            guard let fit = Fit(rawValue: String($1.values[0])) else { throw $1.malformed() }
            $0.fit = fit
        },
        row("enlarge", "0 or 1", canonical: { $0.enlarge ? "1" : "0" }) { $0.enlarge = try $1.bool(0) ?? false },
        row(
            "f", OutputFormat.names.joined(separator: ", ") + ", auto or best",
            canonical: { $0.format?.description ?? "-" }
        ) {
            guard let format = OutputFormat(String($1.values[0])) else { throw $1.malformed() }
            $0.format = format
        },
        row(
            "q", "a whole number from 1 to 100, or auto[:TARGET[:MIN:MAX]]", arguments: 1...4,
            canonical: { $0.autoQuality?.canonical ?? $0.quality.map(String.init) ?? "-" }
        ) { options, arguments in
            guard arguments.values[0] == "auto" else {
                guard arguments.count == 1 else { throw arguments.malformed() }
                (options.quality, options.autoQuality) = (try arguments.int(0, in: 1...100), nil)
                return
            }
            (options.quality, options.autoQuality) = (nil, try autoQuality(arguments))
        },
        row("frame", "a frame index from 0", canonical: { $0.frame.map(String.init) ?? "-" }) {
            $0.frame = try $1.int(0, in: 0...99_999)
        },
        row("dpr", "a number from 1 to 4", canonical: { _ in nil }) { $0.dpr = try $1.decimal(0, in: 1...4) ?? 1 },
    ]
}

extension ProcessingOptions {
    /// `q=auto`, `q=auto:TARGET` or `q=auto:TARGET:MIN:MAX`; `-` leaves a part to the settings (the canonical form
    /// of imgproxy's empty parts).
    static func autoQuality(_ arguments: OptionArguments) throws -> AutoQualityOption {
        guard arguments.count != 3 else { throw arguments.malformed() }
        func given(_ index: Int) -> Bool { arguments.count > index && arguments.values[index] != "-" }
        return AutoQualityOption(
            target: given(1) ? try arguments.decimal(1, in: 0...1, expected: "a DSSIM target in (0, 1)") : nil,
            minQuality: given(2) ? try arguments.int(2, in: 1...100) : nil,
            maxQuality: given(3) ? try arguments.int(3, in: 1...100) : nil)
    }
}
