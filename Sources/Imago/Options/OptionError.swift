/// A processing-options item that cannot be read: the server answers it with a 400, the CLI with a usage error.
public struct OptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The item as written (made printable and short), or the key when the item is not at fault alone.
    public var item: String
    /// One line naming the item and what was expected.
    public var message: String

    /// An error about `item`.
    public init(item: String, message: String) {
        self.item = item
        self.message = message
    }

    public var description: String { message }

    /// `option "ITEM": expected WHAT`.
    static func expected(_ item: Substring, _ what: String) -> OptionError {
        OptionError(item: shown(item), message: "option \"\(shown(item))\": expected \(what)")
    }

    /// An item as echoed in an error: printable ASCII only, at most 64 characters.
    public static func shown(_ text: Substring) -> String {
        let clean = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" }
        return clean.count > 64 ? String(clean.prefix(64)) + "…" : String(clean)
    }
}
