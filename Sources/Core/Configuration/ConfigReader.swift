/// Reads one JSON object of a configuration key by key, tracking the path so every error names it
/// (`transports[0].settings.timeout: expected a number`), and refusing keys nobody read.
///
/// Read every key you accept, then call `finish()`: it throws for the keys left over.
public final class ConfigReader {
    /// The path of this object, for example `transports[0].settings` (empty at the root).
    public let path: String
    private let values: [String: JSONValue]
    private var read: Set<String> = []

    /// A reader of `value`, which must be an object (or null, read as an empty object).
    public init(_ value: JSONValue, path: String = "") throws {
        self.path = path
        switch value {
        case .object(let values): self.values = values
        case .null: self.values = [:]
        default: throw ConfigReader.error(path, "expected an object, found \(value.typeName)")
        }
    }

    /// The path of a key of this object.
    public func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The raw value of `key`, or `nil` when absent or null; marks it read.
    public func value(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = values[key], value != .null else { return nil }
        return value
    }

    /// A number, or `defaultValue` when absent; throws when out of `range`.
    public func double(_ key: String, default defaultValue: Double, in range: ClosedRange<Double>? = nil) throws
        -> Double
    {
        guard let value = value(key) else { return defaultValue }
        guard case .number(let number) = value else { throw typeError(key, "a number", value) }
        if let range, !range.contains(number) {
            throw ConfigReader.error(
                path(of: key), "\(number) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// An optional number (null or absent gives `nil`).
    public func optionalDouble(_ key: String, in range: ClosedRange<Double>? = nil) throws -> Double? {
        guard value(key) != nil else { return nil }
        return try double(key, default: 0, in: range)
    }

    /// A whole number, or `defaultValue` when absent; throws when fractional or out of `range`.
    public func int(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>? = nil) throws -> Int {
        guard let value = value(key) else { return defaultValue }
        guard case .number(let number) = value, number.rounded() == number, abs(number) < 9e15 else {
            throw typeError(key, "a whole number", value)
        }
        let integer = Int(number)
        if let range, !range.contains(integer) {
            throw ConfigReader.error(
                path(of: key), "\(integer) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    /// An optional whole number (null or absent gives `nil`).
    public func optionalInt(_ key: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard value(key) != nil else { return nil }
        return try int(key, default: 0, in: range)
    }

    /// A boolean, or `defaultValue` when absent.
    public func bool(_ key: String, default defaultValue: Bool) throws -> Bool {
        guard let value = value(key) else { return defaultValue }
        guard case .bool(let flag) = value else { throw typeError(key, "true or false", value) }
        return flag
    }

    /// A string, or `nil` when absent; throws when it is not one of `allowed` (if given).
    public func string(_ key: String, allowed: [String]? = nil) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw typeError(key, "a string", value) }
        if let allowed, !allowed.contains(text) {
            throw ConfigReader.error(
                path(of: key), "\"\(text)\" is not one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return text
    }

    /// An object of strings (for headers), or empty when absent.
    public func stringMap(_ key: String) throws -> [String: String] {
        guard let value = value(key) else { return [:] }
        guard case .object(let entries) = value else { throw typeError(key, "an object of strings", value) }
        return try entries.mapValues { entry in
            guard case .string(let text) = entry else { throw typeError(key, "an object of strings", entry) }
            return text
        }
    }

    /// An array, or `nil` when absent.
    public func array(_ key: String) throws -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw typeError(key, "an array", value) }
        return items
    }

    /// A reader of the nested object `key` (absent reads as empty).
    public func object(_ key: String) throws -> ConfigReader {
        try ConfigReader(value(key) ?? .null, path: path(of: key))
    }

    /// Throws for every key present but never read: a typo must not pass silently.
    public func finish() throws {
        let unknown = values.keys.filter { !read.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let known = read.sorted().joined(separator: ", ")
        throw ConfigReader.error(path(of: first), "unknown key (known keys here: \(known))")
    }

    /// An `invalidConfiguration` error for `path`.
    public static func error(_ path: String, _ reason: String) -> ImagoError {
        ImagoError(.invalidConfiguration, "\(path.isEmpty ? "configuration" : path): \(reason)")
    }

    private func typeError(_ key: String, _ expected: String, _ found: JSONValue) -> ImagoError {
        ConfigReader.error(path(of: key), "expected \(expected), found \(found.typeName)")
    }
}
