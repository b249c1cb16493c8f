/// Numbers as URL grammars write them, read in any valid spelling and written back in one: what lets `w=0300`,
/// `w=300` and `w=300.0` mean one variant with one cache key (issue 35): `NumberSpelling.any`, the spelling of
/// Imago's own grammar and imgproxy's, reads through it; each reader decides whether a sign is allowed.
///
/// Accepted: ASCII digits with at most one decimal point (`5`, `05`, `5.`, `.5`, `5.50`), a leading `+` or `-`
/// when the caller allows a sign, at most 32 characters. Refused: exponents (`1e3`), spaces, hex, `nan`, `inf`,
/// a lone sign or point, and a `-0` the caller does not allow.
package enum NumberText {
    /// Which signs a grammar allows in front of a number.
    package enum Sign: Sendable {
        /// None: `+5` and `-5` are not numbers here.
        case none
        /// `+` only (a value that cannot be negative, written with an explicit plus).
        case plus
        /// `+` or `-`.
        case any
    }

    /// The longest spelling read.
    package static let maxLength = 32

    /// The value of `text`, or nil when it is not a number in the accepted form.
    package static func decimal(_ text: some StringProtocol, sign: Sign = .none) -> Double? {
        var digits = Substring(text)
        guard !digits.isEmpty, digits.utf8.count <= maxLength else { return nil }
        var negative = false
        if let first = digits.first, first == "+" || first == "-" {
            switch (first, sign) {
            case ("+", .plus), ("+", .any): break
            case ("-", .any): negative = true
            default: return nil
            }
            digits = digits.dropFirst()
        }
        let parts = digits.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.contains(where: { !$0.isEmpty }),
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let magnitude = Double(parts.count == 2 ? "\(parts[0].isEmpty ? "0" : parts[0]).\(parts[1])0" : digits),
            magnitude.isFinite
        else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The whole number `text` spells, or nil when it is not one: with `allowsFraction`, `300.0` and `300.` are 300
    /// (a fraction other than zero is still not a whole number); without it only digits (and the sign) are read.
    package static func integer(
        _ text: some StringProtocol, sign: Sign = .none, allowsFraction: Bool = false
    ) -> Int? {
        guard allowsFraction || !text.contains("."), let value = decimal(text, sign: sign),
            value == value.rounded(), abs(value) < 1e15
        else { return nil }
        return Int(value)
    }

    /// The one spelling of `value` a cache key uses: the shortest that reads back to it, no sign for zero, no
    /// trailing zeros (`300`, `1.5`, `-4`, `0.125`).
    package static func canonical(_ value: Double) -> String {
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
