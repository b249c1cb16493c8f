import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A test HTTP server: a Python 3 script run as a child process, listening on 127.0.0.1 only.
///
/// The caller's script must bind 127.0.0.1 and print its port on the first stdout line. The server exits when its
/// stdin closes (a watcher is run ahead of the script), so it cannot outlive the test runner even if that crashes.
public final class PythonLoopbackServer: @unchecked Sendable {  // `Process` is not Sendable; it is only stopped once.
    /// The port the server listens on.
    public let port: Int
    private let process: Process
    private let stdin: Pipe
    private let lock = NSLock()
    private var stopped = false

    /// Runs before the caller's script: exits when stdin closes, then runs the script (taken from argv[1]) with
    /// the remaining arguments, as if it had been given to `python3 -c` itself.
    private static let launcher = """
        import os, sys, threading
        def _exit_when_stdin_closes():
            while os.read(0, 65536):
                pass
            os._exit(0)
        threading.Thread(target=_exit_when_stdin_closes, daemon=True).start()
        _script = sys.argv.pop(1)
        exec(compile(_script, "<loopback-server>", "exec"), {"__name__": "__main__"})
        """

    /// Starts `script` with `arguments` (its `sys.argv[1...]`) and waits for the port it prints.
    public init(script: String, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", Self.launcher, script] + arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Byte by byte up to the first newline, so nothing after the port is consumed.
        var line = Data()
        while let byte = try? stdout.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
            byte != Data([UInt8(ascii: "\n")])
        {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text) else {
            Self.killAndReap(process)
            try? stdin.fileHandleForWriting.close()
            throw PythonLoopbackServerError(
                message: "the loopback server did not start (printed \(text.debugDescription))")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `http://127.0.0.1:PORT` followed by `pathAndQuery` (which starts with `/`).
    public func url(_ pathAndQuery: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")! }

    /// Stops the server and waits for it to exit (so no zombie is left); later calls do nothing.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        try? stdin.fileHandleForWriting.close()
        Self.killAndReap(process)
    }

    /// SIGKILL, not `terminate()`: the child inherits the test runner's blocked signals, SIGTERM included, and
    /// SIGKILL cannot be blocked, so the wait always ends.
    private static func killAndReap(_ process: Process) {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The server did not start.
public struct PythonLoopbackServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    public var description: String { message }
}
