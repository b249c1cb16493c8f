import Foundation
import ImagoCore
import Testing

@testable import ImagoCurl
@testable import ImagoTransports

/// The request a libcurl fetch sends, checked without a network.
@Suite struct CurlRequestTests {
    private func request(_ headers: [String: String] = [:]) throws -> CurlRequest {
        try CurlRequest(
            TransportRequest(url: URL(string: "http://127.0.0.1:9/a")!, headers: headers, ifNoneMatch: "\"v1\""),
            configuration: .init(userAgent: "Bot/1", headers: ["Accept": "image/*", "X-Team": "imago"]))
    }

    @Test func mergesHeadersWithoutRegardToCaseTheRequestWinning() throws {
        let merged = try request(["accept": "image/png", "X-Empty": ""])
        let lines = merged.headerLines
        #expect(lines.filter { $0.lowercased().hasPrefix("accept") } == ["accept: image/png"])
        // The User-Agent goes through CURLOPT_USERAGENT, which libcurl does not sign.
        #expect(merged.userAgent == "Bot/1")
        #expect(!lines.contains { $0.lowercased().hasPrefix("user-agent") })
        #expect(try request(["user-agent": "Mine/2"]).userAgent == "Mine/2")
        #expect(lines.contains("X-Team: imago"))
        #expect(lines.contains("If-None-Match: \"v1\""))
        // libcurl's spelling of an empty header (`X-Empty:` would remove it).
        #expect(lines.contains("X-Empty;"))
    }

    @Test func dropsCredentialsWhenARedirectChangesHost() throws {
        let original = try request(["Authorization": "Bearer token", "Cookie": "a=b"])
        let elsewhere = original.redirected(to: URL(string: "https://cdn.example/b")!)
        #expect(elsewhere.url.absoluteString == "https://cdn.example/b")
        #expect(!elsewhere.headerLines.contains { $0.hasPrefix("Authorization") || $0.hasPrefix("Cookie") })
        #expect(elsewhere.headerLines.contains("X-Team: imago"))
        #expect(elsewhere.source == "http://127.0.0.1:9/a")

        let sameHost = original.redirected(to: URL(string: "http://127.0.0.1:9/b")!)
        #expect(sameHost.headerLines.contains("Authorization: Bearer token"))
        #expect(sameHost.headerLines.contains("Cookie: a=b"))
    }

    /// Another port or scheme of the same host is another origin (curl's own rule since CVE-2022-27776).
    @Test func dropsCredentialsWhenARedirectChangesPortOrScheme() throws {
        let original = try request(["Authorization": "Bearer token", "Cookie": "a=b"])
        for target in ["http://127.0.0.1:10/b", "https://127.0.0.1:9/b", "http://127.0.0.1/b"] {
            let next = original.redirected(to: URL(string: target)!)
            #expect(!next.headerLines.contains { $0.hasPrefix("Authorization") || $0.hasPrefix("Cookie") }, "\(target)")
        }
        let defaultPort = try CurlRequest(
            TransportRequest(url: URL(string: "http://127.0.0.1/a")!, headers: ["Authorization": "Bearer token"]),
            configuration: .init())
        #expect(
            defaultPort.redirected(to: URL(string: "http://127.0.0.1:80/b")!).headerLines.contains {
                $0 == "Authorization: Bearer token"
            })
    }

    @Test func refusesHeadersThatWouldInjectAnother() {
        #expect(throws: ImagoError.self) { try request(["X-Note": "a\r\nX-Injected: 1"]) }
        #expect(throws: ImagoError.self) { try request(["Bad Name": "x"]) }
    }
}

/// The event queue's back-pressure, which the libcurl transport pauses and resumes by.
@Suite struct HTTPEventQueueBackPressureTests {
    @Test func pausesTheProducerAboveTheLimitAndResumesItBelowHalf() async throws {
        let queue = HTTPEventQueue()
        let resumes = LockedValue(0)
        queue.onResume { resumes.withLock { $0 += 1 } }
        let chunk = TransportEvent.bytes(Data(count: 100))
        #expect(queue.push(chunk, pausingAbove: 300))
        #expect(queue.push(chunk, pausingAbove: 300))
        #expect(queue.push(chunk, pausingAbove: 300))
        #expect(!queue.push(chunk, pausingAbove: 300))  // 300 bytes wait: the producer must pause

        _ = try await queue.next()  // 200 left: not yet below half the limit
        #expect(resumes.withLock { $0 } == 0)
        _ = try await queue.next()  // 100 left
        #expect(resumes.withLock { $0 } == 1)
        _ = try await queue.next()
        #expect(resumes.withLock { $0 } == 1)  // once per pause
        #expect(queue.push(chunk, pausingAbove: 300))
    }

    /// A gzip bomb inflates 64 KB to 64 MB in one libcurl read: pausing it made libcurl keep and recopy all of it
    /// (18 s and 166 MB for a 200 KB body, through `imago load`). A decoded body is therefore never paused (the
    /// byte cap bounds it), while a plain one still is.
    @Test func neverPausesABodyLibcurlDecodes() throws {
        #expect(CurlTransfer.isEncoded(["content-encoding": "gzip"]))
        #expect(CurlTransfer.isEncoded(["content-encoding": "deflate, gzip"]))
        #expect(!CurlTransfer.isEncoded(["content-encoding": "identity"]))
        #expect(!CurlTransfer.isEncoded([:]))
        let chunk = Data(count: 64 * 1024)
        for decoded in [true, false] {
            let transfer = CurlTransfer(
                id: 1,
                request: try CurlRequest(
                    TransportRequest(url: URL(string: "http://127.0.0.1:9/a")!), configuration: .init()),
                events: HTTPEventQueue(), configuration: .init(),
                startedAt: .now)
            transfer.phase = CurlTransfer.Phase.streaming
            transfer.decodesContent = decoded
            var accepted = 0
            for _ in 0..<32 {
                let taken = chunk.withUnsafeBytes { transfer.receiveBody($0) }
                if taken != chunk.count { break }
                accepted += taken
            }
            #expect(decoded ? accepted == 32 * chunk.count : accepted <= CurlTransfer.bufferLimit + chunk.count)
            #expect(transfer.isPaused == !decoded)
        }
    }
}
