import Testing

/// A test argument shown with its control characters escaped: Swift Testing prints arguments raw, and a line break
/// in one splits the result line, so a summary that reads `✘` lines loses the test's name.
struct EscapedArgument: Sendable, CustomTestStringConvertible, ExpressibleByStringLiteral {
    let value: String
    init(stringLiteral value: String) { self.value = value }
    var testDescription: String { value.debugDescription }
}
