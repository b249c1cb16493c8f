import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `imago serve …` running as a child process: its ready line, its port, its output, and signals to stop it.
final class ServeProcess {
    let process = Process()
    private let folder: URL
    private let outURL: URL
    private let errURL: URL
    /// The port named by the ready line.
    private(set) var port = 0
    /// The ready line.
    private(set) var readyLine = ""

    /// Starts `imago serve arguments…` (of `executable`, by default the built one); with `waitForReady`, returns once
    /// the ready line is on stderr.
    init(_ arguments: [String], waitForReady: Bool = true, executable: URL? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outURL = folder.appendingPathComponent("out")
        errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = try executable ?? ImagoTool.executable()
        process.arguments = ["serve"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard waitForReady else { return }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = stderr.split(separator: "\n").first(where: { $0.contains("listening on") }) {
                readyLine = String(line)
                port = Int(line.split(separator: ":").last ?? "") ?? 0
                return
            }
            guard process.isRunning else { throw TestFailure("imago serve exited: \(stderr)") }
            usleep(20_000)
        }
        stop()
        throw TestFailure("imago serve printed no ready line: \(stderr)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Sends `signal` (SIGTERM, SIGINT).
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the exit; its status, or `nil` when it did not exit in `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills it if it still runs.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// GET `path` with curl-free plain sockets: the status and body.
    func get(_ path: String, timeout: Double = 30) throws -> (status: Int, body: Data) {
        try HTTPGet.get(port: port, path: path, timeout: timeout)
    }
}

/// A one-request HTTP/1.1 client over a socket (`Connection: close`, read to the end).
enum HTTPGet {
    static func get(port: Int, path: String, timeout: Double = 30) throws -> (status: Int, body: Data) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        guard openConnection(descriptor, port: port) else { throw TestFailure("cannot connect to port \(port)") }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(descriptor, request, request.count, 0) == request.count else { throw TestFailure("send failed") }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 { throw TestFailure("recv failed: errno \(errno)") }
            if count == 0 { break }
            received.append(contentsOf: chunk[0..<count])
        }
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { throw TestFailure("no response head") }
        let statusLine = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: " ")
        guard statusLine.count > 1, let status = Int(statusLine[1]) else { throw TestFailure("bad status line") }
        return (status, Data(received[end.upperBound...]))
    }

    /// Whether a TCP connection to the port is accepted.
    static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        return openConnection(descriptor, port: port)
    }

    /// Connects `descriptor` to 127.0.0.1:`port`; whether it succeeded.
    private static func openConnection(_ descriptor: Int32, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }
}
