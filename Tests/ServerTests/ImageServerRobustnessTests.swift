import Foundation
import Imago
import ImagoTestSupport
import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerIntegrationTests {
    /// Hostile requests get a clear 4xx and the server keeps serving.
    @Suite struct ImageServerRobustnessTests {
        @Test func aSixteenKilobytePathIs414() async throws {
            let fixture = try ServerFixture()
            let path = fixture.path("w=10", origin: "img/photo.jpg?" + String(repeating: "a", count: 16 * 1024))
            let response = try await fixture.get(path)
            #expect(response.status == 414)
            #expect(try await fixture.get("/health").status == 200)
        }

        /// A target far over the limit gets the server's own one-line plain 414, not libmicrohttpd's HTML one
        /// (which has neither Content-Type nor Cache-Control).
        @Test func aHundredKilobyteTargetGetsThePlainText414() async throws {
            let fixture = try ServerFixture()
            for size in [9 * 1024, 100 * 1024, 120 * 1024] {
                let path = fixture.path("w=10", origin: "img/photo.jpg?" + String(repeating: "a", count: size))
                let response = try await fixture.get(path)
                #expect(response.status == 414, "\(size) bytes")
                #expect(response.header("Content-Type") == "text/plain; charset=utf-8", "\(size) bytes")
                #expect(response.header("Cache-Control") == "no-store", "\(size) bytes")
                #expect(response.text == "the path is over \(ImageServer.maxTargetBytes) bytes\n", "\(size) bytes")
            }
            #expect(try await fixture.get("/health").status == 200)
        }

        @Test func aOneMegabyteHeaderIsRefusedWithA4xx() async throws {
            let fixture = try ServerFixture()
            let port = fixture.port
            let response = try await offPool {
                let request =
                    "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 1 << 20)
                    + "\r\n\r\n"
                let descriptor = try RawHTTP.connect(port: port)
                defer { close(descriptor) }
                // The server may answer and close before the whole header is sent: a failed send is expected then.
                try? RawHTTP.send(descriptor, Data(request.utf8))
                return try RawHTTP.readResponse(descriptor, headOnly: false)
            }
            #expect(response.status == 431, "status \(response.status)")
            #expect(try await fixture.get("/health").status == 200)
        }

        @Test func hundredIdleConnectionsDoNotStopOthersBeingServed() async throws {
            let fixture = try ServerFixture()
            let port = fixture.port
            let idle = try await offPool {
                try (0..<100).map { index -> Int32 in
                    let descriptor = try RawHTTP.connect(port: port)
                    // Half send nothing, half an unfinished request line.
                    if index % 2 == 1 { try RawHTTP.send(descriptor, Data("GET /heal".utf8)) }
                    return descriptor
                }
            }
            defer { idle.forEach { close($0) } }
            let path = fixture.path("w=12", origin: "img/photo.jpg")
            let responses = try await RawHTTP.concurrently(10) { index in
                try fixture.getBlocking(index % 2 == 0 ? path : "/health")
            }
            #expect(responses.allSatisfy { $0.status == 200 })
        }

        @Test func garbageRequestsNeverCrashTheServer() async throws {
            let fixture = try ServerFixture()
            let port = fixture.port
            let garbage = [
                "\u{0}\u{1}\u{2}\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /health HTTP/1.1\r\n\r\n",
                "GET /%00%0d%0a HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /unsafe/w=1/plain/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET http://evil/ HTTP/1.1\r\nHost: x\r\n\r\n", "BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n",
            ]
            for request in garbage {
                let response = try? await offPool {
                    try RawHTTP.exchange(port: port, request: Data(request.utf8), timeout: 5)
                }
                // libmicrohttpd answers an unknown HTTP version with 505; nothing is a 500.
                if let response {
                    #expect(
                        (200..<500).contains(response.status) || response.status == 505, "\(request.debugDescription)")
                }
            }
            #expect(try await fixture.get("/health").status == 200)
        }
    }
}
