import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` run as a child on a free 127.0.0.1 port, never the system service: no snapshots, no
/// append-only file, `DEBUG` allowed from loopback (so a test can make it slow), an optional password.
///
/// A small Python watcher starts it with a parent-death signal, so the server dies with the watcher, and the
/// watcher exits when its stdin closes: neither can outlive the test runner. `kill()` stops the server at once
/// (SIGKILL), `start()` brings it back on the same port.
public final class RedisServer: @unchecked Sendable {  // `Process` is not Sendable; calls are serialised by `lock`.
    /// The port the server listens on (set once, by `init`).
    public private(set) var port: Int
    /// The password it requires, if any.
    public let password: String?
    private let lock = NSLock()
    private var watcher: Process?
    private var stdin: Pipe?
    private var serverPID: Int32 = 0

    private static let script = """
        import ctypes, os, socket, subprocess, sys, threading, time
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        def die_with_parent():
            libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
        port = sys.argv[1]
        args = ["redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--enable-debug-command", "local", "--loglevel", "warning", "--daemonize", "no"] + sys.argv[2:]
        child = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=die_with_parent)
        def watch_stdin():
            while os.read(0, 65536):
                pass
            child.kill()
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()
        password = sys.argv[sys.argv.index("--requirepass") + 1] if "--requirepass" in sys.argv else None
        def answering_pid():
            # The pid of the server on the port: another test's Redis may hold it (a port freed and taken again),
            # and answering for ours would mix two tests' data.
            with socket.create_connection(("127.0.0.1", int(port)), timeout=1) as connection:
                if password:
                    connection.sendall(b"AUTH %s\\r\\n" % password.encode())
                connection.sendall(b"INFO server\\r\\n")
                received = b""
                while b"process_id:" not in received or not received.endswith(b"\\r\\n"):
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    received += chunk
                for line in received.split(b"\\r\\n"):
                    if line.startswith(b"process_id:"):
                        return int(line.split(b":")[1])
                return None
        deadline = time.time() + 10
        while True:
            if child.poll() is not None or time.time() > deadline:
                print("exited", flush=True)
                os._exit(1)
            try:
                if answering_pid() == child.pid:
                    break
            except OSError:
                pass
            time.sleep(0.02)
        print(child.pid, flush=True)
        child.wait()
        os._exit(0)
        """

    /// A server on `port` (a free one by default), started now unless `startsNow` is false (to test a Redis that
    /// is down when the cache starts).
    public init(port: Int? = nil, password: String? = nil, startsNow: Bool = true) throws {
        self.password = password
        guard port == nil, startsNow else {
            self.port = try port ?? Self.freePort()
            if startsNow { try start() }
            return
        }
        // A free port can be taken by another test before the server binds it: then try another.
        self.port = try Self.freePort()
        for _ in 0..<4 {
            do {
                try start()
                return
            } catch {
                self.port = try Self.freePort()
            }
        }
        try start()
    }

    deinit { stop() }

    /// `redis://[:password@]127.0.0.1:PORT/0`, or with `password` given instead of the real one.
    public func url(password: String? = nil, database: Int = 0) -> String {
        let login = (password ?? self.password).map { ":\($0)@" } ?? ""
        return "redis://\(login)127.0.0.1:\(port)/\(database)"
    }

    /// Starts the server (again) on its port.
    public func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard watcher == nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", "-u", "-c", Self.script, String(port)]
        if let password { arguments += ["--requirepass", password] }
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
            byte != Data([UInt8(ascii: "\n")])
        {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let pid = Int32(text) else {
            try? input.fileHandleForWriting.close()
            if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw RedisServerError(
                message: "redis-server did not start on port \(port) (said \(text.debugDescription))")
        }
        watcher = process
        stdin = input
        serverPID = pid
    }

    /// Kills the server at once (SIGKILL), as a crash would; `start()` brings it back.
    public func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard let watcher else { return }
        _ = Glibc.kill(serverPID, SIGKILL)
        try? stdin?.fileHandleForWriting.close()
        if watcher.isRunning { _ = Glibc.kill(watcher.processIdentifier, SIGKILL) }
        watcher.waitUntilExit()
        // The server is the watcher's child: wait until its port is free again.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, Self.accepts(port: port) { usleep(10_000) }
        self.watcher = nil
        stdin = nil
    }

    /// Stops the server for good.
    public func stop() { kill() }

    /// Runs `redis-cli` against the server (with its password) and returns what it printed.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var all = ["redis-cli", "-h", "127.0.0.1", "-p", String(port), "--no-auth-warning"]
        if let password { all += ["-a", password] }
        process.arguments = all + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server (SIGSTOP) until `resume()`: connections are still accepted by the kernel but nothing is
    /// answered, as with a server stuck in a slow command, for as long as the test needs, however slowly it runs.
    public func pause() {
        lock.lock()
        defer { lock.unlock() }
        _ = Glibc.kill(serverPID, SIGSTOP)
    }

    /// Lets a paused server run again (SIGCONT).
    public func resume() {
        lock.lock()
        defer { lock.unlock() }
        _ = Glibc.kill(serverPID, SIGCONT)
    }

    /// A port nothing listens on right now.
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RedisServerError(message: "socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw RedisServerError(message: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// The server did not start.
public struct RedisServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    public var description: String { message }

    /// Creates an error.
    public init(message: String) { self.message = message }
}
