/// An option that cannot be read or does not hold with the others, named as the user wrote it in their grammar
/// (`w=010`, `rs:fill`, `blur(x)`): the server answers it with a 400, the CLI with a usage error.
public struct OptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for a program to switch on (every kind is the request's own fault).
    public enum Kind: String, Sendable, Hashable {
        /// A value that is not what the option takes (a bad number, colour, gravity, count of arguments).
        case malformed
        /// A name the grammar does not have.
        case unknown
        /// A name the grammar has that Imago does not honour (the message says why).
        case unsupported
        /// The same option given twice where the grammar allows it once.
        case repeated
        /// Options that do not hold together (`ext=1` without both sides, a side over the output limit).
        case conflicting
        /// A preset name the configuration does not have.
        case unknownPreset
    }

    /// What is wrong.
    public var kind: Kind
    /// The option as written (made printable and short), or the name when the item is not at fault alone.
    public var item: String
    /// One line naming the item and what was expected.
    public var message: String

    /// An error about `item`.
    public init(_ kind: Kind = .malformed, item: String, message: String) {
        self.kind = kind
        self.item = item
        self.message = message
    }

    /// An error about `item` (kind `malformed`).
    public init(item: String, message: String) {
        self.init(.malformed, item: item, message: message)
    }

    public var description: String { message }

    /// An item as echoed in an error: printable ASCII only, at most 64 characters.
    public static func shown(_ text: some StringProtocol) -> String {
        let clean = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" }
        return clean.count > 64 ? String(clean.prefix(64)) + "…" : String(clean)
    }
}
