import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `/usr/sbin/nginx` as a child: its own prefix (pid, logs, temp folders) in a temporary folder, `daemon off`,
/// one process (`master_process off`) that dies with the test runner (see `watcher`).
final class NginxProcess: @unchecked Sendable {  // `Process` is not Sendable; only stopped once
    let port: Int
    let prefix: URL
    private let process = Process()
    private var stdin: Pipe?

    /// Starts nginx with a parent-death signal from its own main thread (a signal tied to one of the test runner's
    /// threads would fire when that thread ends), kills it when stdin closes, and exits when it exits.
    private static let watcher = """
        import ctypes, os, subprocess, sys, threading
        libc = ctypes.CDLL("libc.so.6")
        child = subprocess.Popen(sys.argv[1:], preexec_fn=lambda: libc.prctl(1, 9))
        def watch_stdin():
            while os.read(0, 65536):
                pass
            child.kill()
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()
        sys.exit(child.wait())
        """

    init(site: (text: String, port: Int)) throws {
        port = site.port
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("imago-nginx-\(UUID().uuidString)")
        for folder in ["logs", "temp/body", "temp/proxy", "temp/fastcgi", "temp/uwsgi", "temp/scgi"] {
            try FileManager.default.createDirectory(
                at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let temp = prefix.appendingPathComponent("temp").path
        let configuration = """
            master_process off;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/logs/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log \(prefix.path)/logs/access.log;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
            \(site.text)
            }
            """
        let file = prefix.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: file)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", Self.watcher, "/usr/sbin/nginx", "-p", prefix.path, "-c", file.path, "-g", "daemon off;",
        ]
        let input = Pipe()
        stdin = input
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<1000 {
            if HTTPGet.accepts(port: port) { return }
            guard process.isRunning else { break }
            usleep(10_000)
        }
        let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
        stop()
        throw TestFailure("nginx did not start: \(log)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: prefix)
    }

    /// nginx's error log (upstream failures it retried show here).
    var errorLog: String {
        (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
    }

    /// Stops nginx (the watcher kills it when its stdin closes; SIGKILL of the watcher does through the
    /// parent-death signal) and waits for the watcher.
    func stop() {
        try? stdin?.fileHandleForWriting.close()
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
