import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program a test runs as its child, a server most often (`redis-server`, `nginx`, a small Python origin), stopped
/// for sure and never left behind.
///
/// What `Process` gets wrong in a test on Linux, and this does instead:
/// - The child of a test runner inherits its blocked signals (the runners block SIGTERM on their threads), so a
///   `terminate()` may never arrive: this child starts with no signal blocked and every disposition at its default.
/// - `Process.waitUntilExit()` spins a run loop; called from a test on the cooperative pool (two threads here) it
///   starves every other test: this waits with `waitpid` on a thread of its own (`stop()` is `async`).
/// - A server's own children outlive it: this child leads a process group, and stopping it signals the whole group.
/// - A test runner that crashes leaves its children running: with `exitsWithTestProcess` (the default) a small
///   shell holds the read end of a pipe from the test process and kills the group when that pipe closes.
///
/// ```swift
/// let server = try ChildProcess(
///     "/usr/bin/python3", ["-u", "-c", "import http.server as h; s = h.HTTPServer(('127.0.0.1', 0), "
///         + "h.SimpleHTTPRequestHandler); print(s.server_port, flush=True); s.serve_forever()"])
/// let port = try await server.readLine()  // the server binds port 0 and prints the port it got
/// // … test against http://127.0.0.1:\(port)/ …
/// await server.stop()  // SIGTERM to the group, SIGKILL after `grace` seconds, reaped
/// ```
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// The process id of the group leader: the program, or the shell that runs it and watches the test process.
    public let pid: pid_t
    private let output: Int32
    private let state = Mutex<(termination: Termination?, pending: [UInt8], input: Int32?)>((nil, [], nil))

    /// Runs the program (its arguments follow) in the background with no input and the test's pipe as its output,
    /// then reads its own input, a pipe from the test process, in a watcher: when that pipe closes (the test
    /// process ended, or `closeInput()`), the watcher kills the group. The shell exits with the program's status.
    private static let watchingShell = """
        exec 3<&0 0</dev/null
        "$@" &
        program=$!
        exec >/dev/null
        { cat <&3 >/dev/null; kill -KILL 0; } &
        watcher=$!
        exec 3<&-
        wait $program
        status=$?
        kill -KILL $watcher
        exit $status
        """

    /// Starts `executable` (a path) with `arguments` and, when given, `environment` instead of the test process's.
    /// Its standard output is read with `readLine()`; its standard error goes where the test's does. With
    /// `exitsWithTestProcess` a shell runs it and is the group's leader (`pid`); `termination` is then the
    /// program's exit status, or 128 plus the signal that ended it.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        exitsWithTestProcess: Bool = true
    ) throws {
        let (toChild, fromChild) = (try Self.makePipe(), try Self.makePipe())
        let argv =
            exitsWithTestProcess
            ? ["/bin/sh", "-c", Self.watchingShell, "sh", executable] + arguments : [executable] + arguments
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = Self.withCStrings(argv) { argv in
            Self.withCStrings(environmentLines) { environ in
                posix_spawn(&child, argv[0]!, &actions, &attributes, argv, environ)
            }
        }
        close(toChild.read)
        close(fromChild.write)
        guard status == 0 else {
            close(toChild.write)
            close(fromChild.read)
            throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        output = fromChild.read
        state.withLock { $0.input = toChild.write }
    }

    deinit {
        kill()
        closeInput()
        close(output)
    }

    /// The next line the child writes on its standard output, without the newline, read on a thread of its own;
    /// throws when the child closes its output or `timeout` seconds pass first.
    public func readLine(timeout: Double = 60) async throws -> String {
        try await Blocking.run { try self.readLineBlocking(timeout: timeout) }
    }

    /// Stops the child: SIGTERM to its group, then SIGKILL if it has not ended after `grace` seconds; waits for it
    /// on a thread of its own and returns how it ended. Later calls return the same.
    @discardableResult
    public func stop(grace: Double = 5) async -> Termination {
        await Blocking.run { self.stopBlocking(grace: grace) }
    }

    /// Kills the child's group at once (SIGKILL, which nothing blocks) and reaps it; for `deinit` and code that
    /// cannot await.
    @discardableResult
    public func kill() -> Termination { stopBlocking(grace: 0) }

    /// Sends `signal` to the child's group (SIGSTOP and SIGCONT make a server stop answering and go on).
    public func signal(_ signal: Int32) { _ = killpg(pid, signal) }

    /// Closes the child's standard input: the watching shell then kills the group, as when the test process dies.
    public func closeInput() {
        if let input = state.withLock({ state in
            defer { state.input = nil }; return state.input
        }) {
            close(input)
        }
    }

    /// How the child ended, or `nil` while it runs (it is reaped if it has just ended).
    public var termination: Termination? {
        state.withLock { state in
            if state.termination == nil { state.termination = Self.reap(pid, blocking: false) }
            return state.termination
        }
    }

    private func stopBlocking(grace: Double) -> Termination {
        state.withLock { state in
            if let ended = state.termination ?? Self.reap(pid, blocking: false) {
                state.termination = ended
                return ended
            }
            _ = killpg(pid, grace > 0 ? SIGTERM : SIGKILL)
            let deadline = ContinuousClock.now.advanced(by: .seconds(grace))
            while ContinuousClock.now < deadline {
                if let ended = Self.reap(pid, blocking: false) {
                    state.termination = ended
                    _ = killpg(pid, SIGKILL)  // what it started, if the leader ended alone
                    return ended
                }
                usleep(10_000)
            }
            _ = killpg(pid, SIGKILL)
            let ended = Self.reap(pid, blocking: true) ?? .signalled(SIGKILL)
            state.termination = ended
            return ended
        }
    }

    private func readLineBlocking(timeout: Double) throws -> String {
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        while true {
            if let line = state.withLock({ state -> String? in
                guard let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                let line = String(decoding: state.pending[..<newline], as: UTF8.self)
                state.pending.removeSubrange(...newline)
                return line
            }) {
                return line
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw ChildProcessError("no line from the child within \(timeout) s") }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(Double(Int32.max), max(1, left.seconds * 1000)))
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(output, &buffer, buffer.count)
            guard count > 0 else { throw ChildProcessError("the child closed its output before a whole line") }
            state.withLock { $0.pending += buffer[..<count] }
        }
    }

    /// A pipe whose ends are closed in any child they are not handed to (so none keeps it open).
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        else { throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }

    private static func reap(_ pid: pid_t, blocking: Bool) -> Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == -1, errno == EINTR { continue }
            guard result == pid else { return nil }
            // WIFEXITED and friends are macros Swift does not import: the low 7 bits are the signal, 0 for an exit.
            let signal = status & 0x7F
            return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// A child process could not be started or did not answer.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
