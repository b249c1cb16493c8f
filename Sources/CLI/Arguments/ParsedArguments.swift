import Foundation

/// The flags and positionals of one command line, with typed accessors that throw `UsageError` for bad values.
struct ParsedArguments: Sendable {
    let values: [String: [String]]
    let positionals: [String]

    /// Whether the flag was given.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// The flag's last value, or `nil` when absent.
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable flag.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// A whole number within `range`, or `nil` when absent.
    func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "--\(name) expects a whole number in \(range.lowerBound)...\(range.upperBound), got \"\(text)\"")
        }
        return value
    }

    /// A positive number of seconds up to a day, or `nil` when absent.
    func seconds(_ name: String) throws(UsageError) -> Double? {
        guard let text = string(name) else { return nil }
        // At most a day, as the configuration's timeouts: a larger value overflows `Duration` and crashes.
        guard let value = Double(text), value > 0, value <= 86_400 else {
            throw UsageError("--\(name) expects a positive number of seconds up to 86400, got \"\(text)\"")
        }
        return value
    }

    /// One of `allowed`, or `nil` when absent.
    func choice(_ name: String, _ allowed: [String]) throws(UsageError) -> String? {
        guard let text = string(name) else { return nil }
        guard allowed.contains(text.lowercased()) else {
            throw UsageError("--\(name) expects one of \(allowed.joined(separator: ", ")), got \"\(text)\"")
        }
        return text.lowercased()
    }

    /// A size `WxH`, or `nil` when absent.
    func size(_ name: String) throws(UsageError) -> (width: Int, height: Int)? {
        guard let text = string(name) else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...65_535).contains(width),
            (1...65_535).contains(height)
        else {
            throw UsageError("--\(name) expects WIDTHxHEIGHT (for example 640x480), got \"\(text)\"")
        }
        return (width, height)
    }
}
