/// One option as its user wrote it, split into its name and arguments, with typed readers that fail naming it:
/// what a grammar's row reads (`rs:fill:300:200` → `rs` and `fill`, `300`, `200`; `w=300` → `w` and `300`;
/// `blur(2,1)` → `blur` and `2`, `1`).
public struct OptionArguments: Sendable {
    /// The option exactly as written, for messages (`rs:fill:300:200`).
    public let written: Substring
    /// Its name as written (`rs`).
    public let name: Substring
    /// Its arguments as written; an empty one is an argument left out (`rs::300`).
    public let values: [Substring]
    /// How the grammar spells numbers and booleans, and names its items in messages.
    public let style: OptionStyle
    /// What the row takes, for messages.
    public let expected: String

    /// The arguments of `written`.
    public init(written: Substring, name: Substring, values: [Substring], style: OptionStyle, expected: String) {
        self.written = written
        self.name = name
        self.values = values
        self.style = style
        self.expected = expected
    }

    /// How many arguments there are.
    public var count: Int { values.count }

    /// The argument at `index`, or nil when it is left out (absent or empty).
    public subscript(index: Int) -> Substring? {
        index < values.count && !values[index].isEmpty ? values[index] : nil
    }

    // MARK: Failing

    /// `imgproxy option "rs:x": expected WHAT` (`expected` by default).
    public func malformed(_ what: String? = nil) -> OptionError {
        OptionError(
            .malformed, item: shown, message: "\(style.itemName(shown)): expected \(what ?? expected)")
    }

    /// `imgproxy option "zoom:2" is not supported: REASON`.
    public func unsupported(_ reason: String) -> OptionError {
        OptionError(.unsupported, item: shown, message: "\(style.itemName(shown)) is not supported: \(reason)")
    }

    /// The item printable and short.
    public var shown: String { OptionError.shown(written) }

    // MARK: Typed readers

    /// A whole number within `range` (a sign only where the range has negative numbers), nil when left out.
    public func int(_ index: Int, in range: ClosedRange<Int>, expected what: String? = nil) throws -> Int? {
        guard let text = self[index] else { return nil }
        guard let value = style.numbers.integer(text, in: range) else { throw number(text, what) }
        return value
    }

    /// A number with an optional fraction (`2`, `0.5`) within `range`, nil when left out.
    public func decimal(_ index: Int, in range: ClosedRange<Double>, expected what: String? = nil) throws -> Double? {
        guard let text = self[index] else { return nil }
        guard let value = style.numbers.decimal(text, in: range) else { throw number(text, what) }
        return value
    }

    /// One of the grammar's boolean spellings (`1`/`0`; imgproxy's `t`, `true`, …), nil when left out.
    public func bool(_ index: Int) throws -> Bool? {
        guard let text = self[index] else { return nil }
        guard let value = style.booleans[String(text)] else {
            throw malformed(style.booleans.keys.sorted().joined(separator: ", "))
        }
        return value
    }

    /// A colour `RRGGBB` or `RRGGBBAA` (case-insensitive), nil when left out.
    public func color(_ index: Int, expected what: String? = nil) throws -> RGBA? {
        guard let text = self[index] else { return nil }
        guard let color = RGBA(hex: text) else { throw malformed(what) }
        return color
    }

    /// A non-canonical spelling of a number is refused naming the canonical one, in grammars that keep one
    /// spelling per number; anything else that is not a number in range is `malformed`.
    private func number(_ text: Substring, _ what: String?) -> OptionError {
        if style.numbers == .canonical, let canonical = NumberSpelling.canonicalSpelling(of: text) {
            let hint =
                values.count == 1
                ? "write \(name)\(style.valueSeparator)\(canonical) (no leading or trailing zeros)"
                : "write \(canonical) for \(OptionError.shown(text))"
            return OptionError(.malformed, item: shown, message: "\(style.itemName(shown)): \(hint)")
        }
        return malformed(what)
    }
}

/// How a grammar writes numbers, booleans and its items' names in messages.
public struct OptionStyle: Sendable {
    /// The grammar's name in messages (`imgproxy`); empty for Imago's own.
    public var grammar: String
    /// What an item is called (`option`, `filter`).
    public var noun: String
    /// Between an option's name and its value in the grammar (`=`, `:`), for hints.
    public var valueSeparator: String
    /// Which spellings of a number are read.
    public var numbers: NumberSpelling
    /// The boolean spellings and their values.
    public var booleans: [String: Bool]

    /// A style.
    public init(
        grammar: String, noun: String, valueSeparator: String, numbers: NumberSpelling, booleans: [String: Bool]
    ) {
        (self.grammar, self.noun, self.valueSeparator) = (grammar, noun, valueSeparator)
        (self.numbers, self.booleans) = (numbers, booleans)
    }

    /// `imgproxy option "ITEM"`, `option "ITEM"`.
    public func itemName(_ shown: String) -> String {
        (grammar.isEmpty ? "" : grammar + " ") + "\(noun) \"\(shown)\""
    }
}

/// Which spellings of a number a grammar reads. Numbers are never signs alone, spaces, exponents, `nan` or `inf`.
public enum NumberSpelling: Sendable, Hashable {
    /// One spelling per number: no leading zeros (`010`), no fraction ending in zero (`1.50`, `2.0`); those are
    /// refused naming the canonical form, so an image has one URL.
    case canonical
    /// Any digits (`010`, `1.50`): the value is what counts, and the options model (so the cache key) holds the
    /// value, whatever its spelling.
    case plain
    /// Every valid spelling (`NumberText`): any digits, a `+` sign (and a `-` where the range has negative
    /// numbers), a whole number written with a zero fraction (`300.0`, `300.`); what Imago's grammar and imgproxy's
    /// (Go's `Atoi` and `ParseFloat` take a sign) read. The model holds the value, so every spelling has one key.
    case any

    /// Digits (and a `-` where `range` has negative numbers), at most 10 of them, within `range`; `any` reads every
    /// spelling `NumberText` does.
    func integer(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        if self == .any {
            let sign: NumberText.Sign = range.lowerBound < 0 ? .any : .plus
            return NumberText.integer(text, sign: sign, allowsFraction: true).flatMap { range.contains($0) ? $0 : nil }
        }
        let negative = text.hasPrefix("-") && range.lowerBound < 0
        let digits = negative ? text.dropFirst() : text
        guard !digits.isEmpty, digits.count <= 10, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            self == .plain || Self.canonicalSpelling(of: digits) == nil, let magnitude = Int(digits)
        else { return nil }
        // `-0` is not a spelling of 0 where one spelling is kept.
        if negative && magnitude == 0 && self == .canonical { return nil }
        let value = negative ? -magnitude : magnitude
        return range.contains(value) ? value : nil
    }

    /// `D` or `D.D` (and a `-` where `range` has negative numbers), within `range`; plain spellings may leave out
    /// one side of the point (`1.`, `.5`), as thumbor's pattern and Go's `ParseFloat` do.
    func decimal(_ text: Substring, in range: ClosedRange<Double>) -> Double? {
        if self == .any {
            let sign: NumberText.Sign = range.lowerBound < 0 ? .any : .plus
            return NumberText.decimal(text, sign: sign).flatMap { range.contains($0) ? $0 : nil }
        }
        let negative = text.hasPrefix("-") && range.lowerBound < 0
        let digits = negative ? text.dropFirst() : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let emptySides = parts.filter(\.isEmpty).count
        guard (1...2).contains(parts.count), digits.count <= 12, emptySides == 0 || (self == .plain && emptySides == 1),
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            self == .plain || Self.canonicalSpelling(of: digits) == nil,
            let magnitude = Double(parts.count == 2 ? "0\(parts[0]).\(parts[1])0" : digits), magnitude.isFinite
        else { return nil }
        let value = negative ? -magnitude : magnitude
        return range.contains(value) ? value : nil
    }

    /// The canonical spelling of a number written with a leading zero (`010`, `01.5`) or a fraction ending in zero
    /// (`1.50`, `2.0`); `nil` when `text` is canonical or not a number at all.
    public static func canonicalSpelling(of text: Substring) -> String? {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), digits.count <= 12,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
        else { return nil }
        var whole = parts[0].drop { $0 == "0" }
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.last == "0" { fraction = fraction.dropLast() }
        let canonical = (negative ? "-" : "") + (fraction.isEmpty ? String(whole) : "\(whole).\(fraction)")
        return canonical == text ? nil : canonical
    }
}
