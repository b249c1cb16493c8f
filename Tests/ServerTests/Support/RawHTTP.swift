import Foundation
import ImagoTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A response as read off the socket.
struct RawResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A failure of the raw client.
struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
}

/// A minimal blocking HTTP/1.1 client over a socket, so tests control every byte sent (long paths, huge headers,
/// idle connections) and see every byte received.
enum RawHTTP {
    /// Opens a TCP connection to 127.0.0.1:`port`, with a receive timeout.
    static func connect(port: Int, timeout: Double = 30) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawHTTPError(description: "connect to port \(port) failed: errno \(errno)")
        }
        var interval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Sends `request` and reads one response (up to `Content-Length`, or to the end for none).
    static func exchange(port: Int, request: Data, timeout: Double = 30) throws -> RawResponse {
        let descriptor = try connect(port: port, timeout: timeout)
        defer { close(descriptor) }
        try send(descriptor, request)
        return try readResponse(descriptor, headOnly: false)
    }

    /// `GET`/`HEAD` `target` with `headers`, on a fresh connection closed afterwards.
    static func get(
        port: Int, target: String, method: String = "GET", headers: [String: String] = [:], timeout: Double = 30
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let descriptor = try connect(port: port, timeout: timeout)
        defer { close(descriptor) }
        try send(descriptor, Data(head.utf8))
        return try readResponse(descriptor, headOnly: method == "HEAD")
    }

    static func send(_ descriptor: Int32, _ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, data.count - offset, 0) }
            guard sent > 0 else { throw RawHTTPError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads a response: the head, then `Content-Length` bytes (none for HEAD, 304), or up to the end.
    static func readResponse(_ descriptor: Int32, headOnly: Bool) throws -> RawResponse {
        var buffer = Data()
        return try readResponse(descriptor, headOnly: headOnly, buffer: &buffer)
    }

    /// Reads a response starting with the bytes in `buffer`; what was read beyond it stays in `buffer`.
    static func readResponse(_ descriptor: Int32, headOnly: Bool, buffer: inout Data) throws -> RawResponse {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let separator = Data("\r\n\r\n".utf8)
        func fill() throws -> Bool {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 { throw RawHTTPError(description: "recv failed: errno \(errno)") }
            if count == 0 { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        while buffer.range(of: separator) == nil {
            guard try fill() else { throw RawHTTPError(description: "connection closed before the head ended") }
        }
        let headEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawHTTPError(description: "bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(buffer[headEnd.upperBound...])
        if headOnly || status == 304 || status == 204 {
            buffer = body
            return RawResponse(status: status, headers: headers, body: Data())
        }
        if let length = headers["content-length"].flatMap(Int.init) {
            while body.count < length {
                guard try fill() else { break }
                body = Data(buffer[headEnd.upperBound...])
            }
            buffer = Data(body.dropFirst(length))
            body = body.prefix(length)
        } else {
            while try fill() {}
            body = Data(buffer[headEnd.upperBound...])
            buffer = Data()
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Runs `count` blocking calls at once, each on a thread of its own, and returns their results in order.
    static func concurrently<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) throws -> T) async throws
        -> [T]
    {
        try await offPool { try concurrentlyBlocking(count, work) }
    }

    private static func concurrentlyBlocking<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) throws -> T)
        throws -> [T]
    {
        let results = ResultBox<T>(count: count)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                results.set(index, Result { try work(index) })
                group.leave()
            }
        }
        group.wait()
        return try results.values.map { try $0!.get() }
    }
}

private final class ResultBox<T: Sendable>: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var stored: [Result<T, any Error>?]
    init(count: Int) { stored = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Result<T, any Error>) {
        lock.lock()
        stored[index] = value
        lock.unlock()
    }
    var values: [Result<T, any Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
