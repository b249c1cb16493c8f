/// One URL grammar's options: a table of rows, each reading one option as its users write it and writing typed
/// values into the one options model (`ProcessingOptions`). Imago's own grammar (`w=300,fit=cover`), imgproxy's
/// (`rs:fill:300:200`) and thumbor's filters (`blur(2)`) are three such tables; whatever wrote the options, one
/// validation (`ProcessingOptions.validate`) then runs, and one canonical form keys the result.
///
/// Adding an option to a grammar is one row:
///
/// ```swift
/// OptionRow(["blur", "bl"], expected: "a sigma", arguments: 1...1, writes: ["blur"]) { reading, arguments in
///     reading.options.blur = try arguments.decimal(0, in: 0...100)
/// }
/// ```
///
/// `Scratch` is what a grammar keeps while it reads, for the rules that need several of its options at once
/// (thumbor's `fit-in` and size; imgproxy's per-format quality): `Void` for Imago's own.
public struct OptionGrammar<Scratch: Sendable>: Sendable {
    /// How numbers, booleans and items are written.
    public let style: OptionStyle
    /// The rows, in the order the documentation lists them.
    public let rows: [OptionRow<Scratch>]
    /// Names the grammar has that Imago does not honour, and why: a 400 naming them, never ignored.
    public let unsupported: [String: String]
    /// Whether an option may be given twice, the later winning (imgproxy), or is refused (Imago's own).
    public let laterOptionsOverride: Bool
    private let index: [String: Int]

    /// A grammar of `rows` (no name given twice).
    public init(
        style: OptionStyle, rows: [OptionRow<Scratch>], unsupported: [String: String] = [:],
        laterOptionsOverride: Bool
    ) {
        self.style = style
        self.rows = rows
        self.unsupported = unsupported
        self.laterOptionsOverride = laterOptionsOverride
        var index: [String: Int] = [:]
        for (position, row) in rows.enumerated() {
            for name in row.names {
                precondition(index.updateValue(position, forKey: name) == nil, "\(name) is in two rows")
            }
        }
        self.index = index
    }

    /// The row of an option named `name` (or one of its aliases).
    public func row(named name: some StringProtocol) -> OptionRow<Scratch>? {
        index[String(name)].map { rows[$0] }
    }

    /// Whether `name` is an option of this grammar, honoured or not.
    public func knows(_ name: some StringProtocol) -> Bool {
        index[String(name)] != nil || unsupported[String(name)] != nil
    }

    /// Reads `item` (`name` and `values` as split by the grammar) into `reading`.
    public func apply(_ item: OptionItem, to reading: inout OptionsReading<Scratch>) throws {
        guard let row = row(named: item.name) else {
            let shown = OptionError.shown(item.written.prefix(40))
            if let reason = unsupported[String(item.name)] {
                throw OptionError(
                    .unsupported, item: shown, message: "\(style.itemName(shown)) is not supported: \(reason)")
            }
            throw OptionError(.unknown, item: shown, message: "\(style.itemName(shown)) is not known")
        }
        let arguments = OptionArguments(
            written: item.written, name: item.name, values: item.values, style: style, expected: row.expected)
        guard row.arguments.contains(item.values.count) else { throw arguments.malformed() }
        try row.apply(&reading, arguments)
        for field in row.writes { reading.spellings[field] = arguments.shown }
    }

    /// Reads every item: the presets `pr` (or its grammar's spelling) names first, each in Imago's grammar, then
    /// the others over them in their order; with `onlyPresets`, anything but presets is refused.
    public func read(
        _ items: [OptionItem], into reading: inout OptionsReading<Scratch>, context: ProcessingOptions.Context
    ) throws {
        var seen: Set<Substring> = []
        var presetItems: [OptionItem] = []
        for item in items {
            let row = row(named: item.name)
            if !laterOptionsOverride, let row, !seen.insert(Substring(row.names[0])).inserted {
                throw OptionError(
                    .repeated, item: OptionError.shown(item.name),
                    message: "\(style.noun) \(OptionError.shown(item.name)) is given twice")
            }
            if row?.readsPresets == true {
                presetItems.append(item)
            } else if context.onlyPresets {
                let shown = OptionError.shown(item.written.prefix(40))
                let presets = rows.first(where: \.readsPresets)?.names.min { $0.count < $1.count } ?? "pr"
                throw OptionError(
                    .conflicting, item: shown,
                    message: "\(style.itemName(shown)): only \(presets)\(style.valueSeparator) is accepted "
                        + "(serve.onlyPresets)")
            }
        }
        for item in presetItems { try apply(item, to: &reading) }
        for name in reading.options.presets {
            guard let text = context.presets[name] else {
                let shown = OptionError.shown(reading.spelling(of: "pr"))
                throw OptionError(
                    .unknownPreset, item: shown,
                    message: "\(style.itemName(shown)): unknown preset \"\(OptionError.shown(name))\" (presets are the "
                        + "configuration's string presets)")
            }
            try reading.applyPreset(name, text)
        }
        for item in items where row(named: item.name)?.readsPresets != true { try apply(item, to: &reading) }
    }
}

/// One option of a grammar: its names, what it takes, and how it writes the options model.
public struct OptionRow<Scratch: Sendable>: Sendable {
    /// The name first, then its aliases (`resize`, `rs`).
    public let names: [String]
    /// What its arguments look like, for messages and documentation (`TYPE:WIDTH:HEIGHT`).
    public let expected: String
    /// How many arguments it takes (an empty one counts: `rs::300`).
    public let arguments: ClosedRange<Int>
    /// The options it sets, by their key in Imago's grammar (`w`, `fit`): a check over several options
    /// (`ProcessingOptions.validate`) names the item that set them as it was written.
    public let writes: [String]
    /// Whether it names presets (`pr`), which are read before the other options and under them.
    public let readsPresets: Bool
    /// How the model holds it in Imago's grammar, for the canonical form (Imago's own rows only): nil when left
    /// out (the default, or folded into another key).
    public let canonical: (@Sendable (ProcessingOptions) -> String?)?
    let apply: @Sendable (inout OptionsReading<Scratch>, OptionArguments) throws -> Void

    /// A row.
    public init(
        _ names: [String], expected: String, arguments: ClosedRange<Int> = 1...1, writes: [String] = [],
        readsPresets: Bool = false, canonical: (@Sendable (ProcessingOptions) -> String?)? = nil,
        apply: @escaping @Sendable (inout OptionsReading<Scratch>, OptionArguments) throws -> Void
    ) {
        precondition(!names.isEmpty)
        self.names = names
        self.expected = expected
        self.arguments = arguments
        self.writes = writes
        self.readsPresets = readsPresets
        self.canonical = canonical
        self.apply = apply
    }

    /// The option's name.
    public var name: String { names[0] }
}

/// An option as written, split by its grammar (`rs:fill:300` → `rs`, [`fill`, `300`]).
public struct OptionItem: Sendable {
    /// The whole item.
    public var written: Substring
    /// Its name.
    public var name: Substring
    /// Its arguments.
    public var values: [Substring]

    /// An item.
    public init(written: Substring, name: Substring, values: [Substring]) {
        self.written = written
        self.name = name
        self.values = values
    }

    /// `name` + `separator` + the rest split by `argumentSeparator` (`w=300` by `=` and `:`; `rs:fill:300` by
    /// `:` and `:`); an item without `separator` has no arguments.
    public init(_ written: Substring, separator: Character, argumentSeparator: Character) {
        self.written = written
        guard let split = written.firstIndex(of: separator) else {
            (name, values) = (written, [])
            return
        }
        name = written[..<split]
        values = written[written.index(after: split)...].split(
            separator: argumentSeparator, omittingEmptySubsequences: false)
    }
}

/// The options being read by a grammar: the model, what the grammar keeps aside, and how the user spelt each
/// option (for messages about several of them).
public struct OptionsReading<Scratch: Sendable>: Sendable {
    /// The options model, written by the rows.
    public var options: ProcessingOptions
    /// What the grammar keeps while it reads.
    public var scratch: Scratch
    /// Each option set so far (by its Imago key) and the item that set it, as written.
    public var spellings: [String: String] = [:]

    /// A reading starting from `options` with `scratch`.
    public init(options: ProcessingOptions = ProcessingOptions(), scratch: Scratch) {
        self.options = options
        self.scratch = scratch
    }

    /// How the user wrote the option `key` (Imago's key), or Imago's key when nothing spelt it.
    public func spelling(of key: String) -> String { spellings[key] ?? key }

    /// Reads the preset `name`'s `text` (Imago's grammar) into the options; it cannot name presets itself.
    mutating func applyPreset(_ name: String, _ text: String) throws {
        var preset = OptionsReading<Void>(options: options, scratch: ())
        let grammar = ProcessingOptions.grammar
        for item in try ProcessingOptions.items(of: Substring(text)) {
            if grammar.row(named: item.name)?.readsPresets == true {
                throw OptionError(.conflicting, item: name, message: "preset \(name): a preset cannot name pr")
            }
            try grammar.apply(item, to: &preset)
        }
        options = preset.options
        for (key, item) in preset.spellings { spellings[key] = "\(item) (preset \(name))" }
    }
}
