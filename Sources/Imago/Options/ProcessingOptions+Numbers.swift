/// The number forms of the grammar: digits only, no signs, spaces, exponents, `nan` or `inf`, one spelling each.
extension ProcessingOptions {
    /// Digits only (no sign, no spaces), at most 10 of them, within `range`.
    static func integer(_ text: Substring, in range: ClosedRange<Int>) -> Int? {
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text),
            range.contains(value)
        else { return nil }
        return value
    }

    /// `D` or `D.D`, digits only, within `range`.
    static func decimal(_ text: Substring, in range: ClosedRange<Double>) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), text.count <= 12,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let value = Double(text), value.isFinite, range.contains(value)
        else { return nil }
        return value
    }

    /// The canonical spelling of a number written with a leading zero (`010`, `01.5`) or a fraction ending in zero
    /// (`1.50`, `2.0`); `nil` when `text` is canonical or not a number at all (refused by the value's own check).
    public static func canonicalSpelling(of text: Substring) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), text.count <= 12,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
        else { return nil }
        var whole = parts[0].drop { $0 == "0" }
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.last == "0" { fraction = fraction.dropLast() }
        let canonical = fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
        return canonical == text ? nil : canonical
    }

    /// Refuses a number spelt with leading or trailing zeros, naming its canonical form.
    static func requireCanonical(_ value: Substring, key: Substring, item: Substring) throws {
        if let canonical = canonicalSpelling(of: value) {
            throw OptionError(
                item: OptionError.shown(item),
                message:
                    "option \"\(OptionError.shown(item))\": write \(key)=\(canonical) (no leading or trailing zeros)"
            )
        }
    }

    /// A double as the shortest text that reads back to it (`2`, `1.5`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func scaled(_ side: Int, _ dpr: Double) -> Int { Int((Double(side) * dpr).rounded()) }
}
