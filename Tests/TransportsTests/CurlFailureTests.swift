import Foundation
import ImagoCore
import ImagoTestSupport
import ImagoTransports
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the libcurl transport classes a server that breaks HTTP, against a real misbehaving server, through a
/// loader that retries what is worth retrying.
@Suite struct CurlFailureTests {
    /// A raw-socket server: `/big-header` answers with a 200 KB header line, `/bad-chunks` with chunked encoding
    /// whose chunk size is not hex; `/count` says how many of those it has answered.
    static let script = #"""
        import socket, threading
        answered = [0]
        lock = threading.Lock()
        def handle(connection):
            with connection:
                request = b""
                while b"\r\n\r\n" not in request:
                    data = connection.recv(65536)
                    if not data:
                        return
                    request += data
                path = request.split(b" ")[1]
                if path == b"/count":
                    with lock:
                        body = str(answered[0]).encode()
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                                       % (len(body), body))
                    return
                with lock:
                    answered[0] += 1
                if path == b"/big-header":
                    connection.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200000
                                       + b"\r\nContent-Length: 2\r\n\r\nok")
                else:
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n"
                                       b"Transfer-Encoding: chunked\r\n\r\nzz-not-hex\r\ngarbage\r\n")
                try:
                    connection.shutdown(socket.SHUT_WR)
                    connection.recv(65536)
                except OSError:
                    pass
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", 0))
        server.listen(128)
        print(server.getsockname()[1], flush=True)
        while True:
            connection, _ = server.accept()
            threading.Thread(target=handle, args=(connection,), daemon=True).start()
        """#

    /// A loader over libcurl that retries up to 3 times, quickly.
    static func retryingLoader() -> ImageLoader {
        var builder = PluginRegistry.Builder()
        builder.add(CurlTransport())
        let registry = builder.build()
        var settings = LoaderSettings()
        settings.retry = RetryPolicy(maxAttempts: 3, initialDelay: 0.01, maxDelay: 0.05)
        return ImageLoader(registry: registry, settings: settings)
    }

    /// Loads `path` from a fresh server; the error, the fetches the loader started and the requests the server saw.
    static func failure(of path: String) async throws -> (error: ImagoError?, fetches: Int, answered: Int) {
        let server = try PythonLoopbackServer(script: script)
        defer { server.stop() }
        let fetches = Mutex(0)
        let listener = ImageLoadEventClosure { event in
            if case .fetchStarted = event.kind { fetches.withLock { $0 += 1 } }
        }
        let error = await #expect(throws: ImagoError.self) {
            _ = try await retryingLoader().image(for: ImageRequest(url: server.url(path)), listener: listener)
        }
        let (count, _) = try await URLSession.shared.data(from: server.url("/count"))
        return (error, fetches.withLock { $0 }, Int(String(decoding: count, as: UTF8.self)) ?? -1)
    }

    @Test func aHeaderOverLibcurlsLimitIsTooLargeAndNotRetried() async throws {
        let (error, fetches, answered) = try await Self.failure(of: "/big-header")
        #expect(error?.kind == .tooLarge)
        #expect(error?.reason.contains("header is too large") == true, "\(String(describing: error))")
        #expect(error?.reason.contains("memory") == false)
        #expect(error?.attempts == 1)
        #expect(fetches == 1)
        #expect(answered == 1)
    }

    @Test func brokenChunkedEncodingIsAProtocolErrorAndNotRetried() async throws {
        let (error, fetches, answered) = try await Self.failure(of: "/bad-chunks")
        #expect(error?.kind == .transportFailed(status: nil))
        #expect(error?.reason.contains("chunked-encoding") == true, "\(String(describing: error))")
        #expect(error.map { RetryPolicy.default.isRetryable($0) } == false)
        #expect(error?.attempts == 1)
        #expect(fetches == 1)
        #expect(answered == 1)
    }
}
