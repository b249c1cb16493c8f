/// Splits a command line into flags and positionals, checked against a `CommandSpec`.
///
/// `--name value`, `--name=value` and `-o value` are accepted; `--` ends the flags.
enum ArgumentParser {
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let flags = spec.allFlags
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var index = 0
        var flagsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !flagsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                flagsEnded = true
                continue
            }
            let (flag, inlineValue) = try lookUp(argument, in: flags)
            var value = ""
            if flag.takesValue {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("--\(flag.name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
            } else if inlineValue != nil {
                throw UsageError("--\(flag.name) takes no value")
            }
            if values[flag.name] != nil, !flag.repeatable {
                throw UsageError("--\(flag.name) given more than once")
            }
            values[flag.name, default: []].append(value)
        }
        let parsed = ParsedArguments(values: values, positionals: positionals)
        if parsed.has("help") { return parsed }
        let count = positionals.count
        if count < spec.positionals.minimum {
            throw UsageError(count == 0 ? "missing \(spec.positionals.name)" : "too few arguments")
        }
        if let maximum = spec.positionals.maximum, count > maximum {
            throw UsageError("unexpected argument \"\(positionals[maximum])\"")
        }
        return parsed
    }

    private static func lookUp(_ argument: String, in flags: [FlagSpec]) throws(UsageError) -> (FlagSpec, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let flag = flags.first(where: { $0.name == name }) else {
                throw UsageError("unknown option --\(name)")
            }
            return (flag, inline)
        }
        let letter = argument.dropFirst()
        guard letter.count == 1, let flag = flags.first(where: { $0.short == letter.first }) else {
            if argument == "-h" { return (flags.first { $0.name == "help" }!, nil) }
            throw UsageError("unknown option \(argument)")
        }
        return (flag, nil)
    }
}
