/// A flag a command accepts: `--name`, with or without a value.
struct FlagSpec: Sendable {
    /// The name without dashes, for example `max-size`.
    let name: String
    /// The placeholder of the value (`N`, `DIR`), or `nil` for a switch that takes none.
    let value: String?
    /// Whether the flag may be given more than once.
    let repeatable: Bool
    /// One line of help.
    let help: String
    /// A one-letter alias, for example `o` for `--output`.
    let short: Character?

    /// A flag that takes a value.
    static func option(
        _ name: String, _ value: String, short: Character? = nil, repeatable: Bool = false, _ help: String
    )
        -> FlagSpec
    {
        FlagSpec(name: name, value: value, repeatable: repeatable, help: help, short: short)
    }

    /// A flag that takes no value.
    static func toggle(_ name: String, _ help: String) -> FlagSpec {
        FlagSpec(name: name, value: nil, repeatable: false, help: help, short: nil)
    }

    var takesValue: Bool { value != nil }
}

/// The positional arguments a command accepts.
struct PositionalSpec: Sendable {
    /// The placeholder, for example `SRC`.
    let name: String
    /// The fewest allowed.
    let minimum: Int
    /// The most allowed (`nil` for no limit).
    let maximum: Int?
}

/// What a command accepts, and the text of its usage.
struct CommandSpec: Sendable {
    /// The command's words after `imago`, for example `bench decode`.
    let name: String
    /// The synopsis after the name, for example `SRC… [--json]`.
    let synopsis: String
    /// One line saying what the command does.
    let summary: String
    let positionals: PositionalSpec
    let flags: [FlagSpec]

    /// Every flag, `--help` included.
    var allFlags: [FlagSpec] { flags + [.toggle("help", "show this help")] }

    /// The usage text printed by `--help` and after a usage error.
    var usage: String {
        var text = "usage: imago \(name) \(synopsis)\n\n\(summary)\n"
        let rows = allFlags.map { flag -> (String, String) in
            var left = "--\(flag.name)"
            if let short = flag.short { left = "-\(short), " + left }
            if let value = flag.value { left += " \(value)" }
            return (left, flag.help + (flag.repeatable ? " (repeatable)" : ""))
        }
        let width = rows.map(\.0.count).max() ?? 0
        text += "\noptions:\n"
        for (left, help) in rows {
            text += "  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + help + "\n"
        }
        return text
    }
}
