import Foundation
import ImagoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error, and what the environment says about them.
enum Console {
    /// Writes `text` to standard output as it is.
    static func write(_ text: String) { writeAll(STDOUT_FILENO, text) }

    /// Writes one line to standard output.
    static func print(_ line: String) { writeAll(STDOUT_FILENO, line + "\n") }

    /// Writes `text` to standard error as it is.
    static func writeError(_ text: String) { writeAll(STDERR_FILENO, text) }

    /// Writes the one line a failed source gets on standard error: `SOURCE: reason`, newlines folded.
    static func report(_ error: ImagoError, source: String? = nil) {
        var error = error
        if let source {
            // A source with control characters (a URL with CR/LF) is shown escaped, so the report stays one line.
            let hasControl = source.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            error.source = hasControl ? source.debugDescription : source
        }
        writeError(oneLine(error.description) + "\n")
    }

    /// Writes a one-line message to standard error.
    static func printError(_ line: String) { writeError(oneLine(line) + "\n") }

    /// Whether standard error is a terminal (the progress bar is drawn only then).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether colour is turned off (`NO_COLOR` set and not empty, as no-color.org says).
    static var noColor: Bool {
        guard let value = ProcessInfo.processInfo.environment["NO_COLOR"] else { return false }
        return !value.isEmpty
    }

    /// The terminal's width in columns: the window size, else `$COLUMNS`, else 80.
    static var terminalColumns: Int {
        var size = winsize()
        for descriptor in [STDOUT_FILENO, STDERR_FILENO, STDIN_FILENO]
        where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }

    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
