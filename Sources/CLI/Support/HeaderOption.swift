import Foundation

/// `--header "Name: value"` (repeatable), shared by `load`, `info` and `convert`.
enum HeaderOption {
    static let flag = FlagSpec.option(
        "header", "\"NAME: VALUE\"", repeatable: true, "send a request header (HTTP), for example an Authorization")

    /// The headers given; a later value of the same name (compared case-insensitively) replaces an earlier one.
    static func headers(_ arguments: ParsedArguments) throws(UsageError) -> [String: String] {
        var headers: [String: String] = [:]
        for text in arguments.strings("header") {
            guard let colon = text.firstIndex(of: ":") else {
                throw UsageError("--header expects \"NAME: VALUE\", got \"\(text)\"")
            }
            let name = text[..<colon].trimmingCharacters(in: .whitespaces)
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw UsageError("--header expects \"NAME: VALUE\", got \"\(text)\"") }
            if let old = headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                headers[old] = nil
            }
            headers[name] = value
        }
        return headers
    }
}
