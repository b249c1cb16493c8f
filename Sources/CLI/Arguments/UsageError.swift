/// A command line that does not match its command's spec: printed with the usage, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
