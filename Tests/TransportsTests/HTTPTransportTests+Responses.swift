import Foundation
import ImagoCore
import ImagoTransports
import Testing

extension HTTPTransportTests {
    @Test(arguments: HTTPTransportKind.allCases) func followsRedirectsWithinTheLimit(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make(.init(maxRedirects: 3))
        let fetched = try await transport.fetchAll(TransportRequest(url: try loopback().url("/redirect?n=3")))
        #expect(fetched.data == expectedBody(10))
        #expect(fetched.metadata.finalURL?.path == "/bytes")
    }

    @Test(arguments: HTTPTransportKind.allCases) func failsPastTheRedirectLimit(_ kind: HTTPTransportKind) async throws
    {
        let transport = kind.make(.init(maxRedirects: 2))
        let url = try loopback().url("/redirect?n=3")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .transportFailed(status: 302))
        #expect(error.reason == "too many redirects (more than 2)")
        #expect(error.source == url.absoluteString)
        #expect(recording.events.isEmpty)
    }

    @Test(arguments: HTTPTransportKind.allCases) func failsARedirectLoop(_ kind: HTTPTransportKind) async throws {
        let transport = kind.make()
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: try loopback().url("/loop"))))
        #expect(recording.imagoError?.kind == .transportFailed(status: 302))
        #expect(recording.imagoError?.reason == "too many redirects (more than 10)")
    }

    @Test(arguments: HTTPTransportKind.allCases) func zeroRedirectsAllowedRefusesTheFirst(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make(.init(maxRedirects: 0))
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: try loopback().url("/redirect?n=1"))))
        #expect(recording.imagoError?.reason == "too many redirects (more than 0)")
    }

    @Test(arguments: HTTPTransportKind.allCases) func neverRedirectsToAnotherScheme(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let url = try loopback().url("/redirect-to?location=file:///etc/passwd")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .transportFailed(status: 302))
        #expect(error.reason == "refused redirect to file:///etc/passwd: only http and https are followed")
        #expect(recording.events.isEmpty)
    }

    @Test(
        arguments: HTTPTransportKind.allCases,
        [(404, "404 Not Found"), (500, "500 Internal Server Error"), (403, "403 Forbidden")])
    func failsOtherStatusesWithoutDeliveringTheBody(_ kind: HTTPTransportKind, _ expected: (Int, String)) async throws {
        let (status, reason) = expected
        let transport = kind.make()
        let url = try loopback().url("/status?code=\(status)")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .transportFailed(status: status))
        #expect(error.reason == reason)
        #expect(error.source == url.absoluteString)
        #expect(error.retryAfter == nil)
        #expect(recording.events.isEmpty)
    }

    @Test(arguments: HTTPTransportKind.allCases) func surfacesRetryAfterInSeconds(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let url = try loopback().url("/status?code=503&retry_after=7")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        #expect(recording.imagoError?.kind == .transportFailed(status: 503))
        #expect(recording.imagoError?.reason == "503 Service Unavailable")
        #expect(recording.imagoError?.retryAfter == 7)
    }

    @Test(arguments: HTTPTransportKind.allCases) func surfacesRetryAfterAsAnHTTPDate(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: Date().addingTimeInterval(120))
        let query = date.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? date
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: try loopback().url("/status?code=429&retry_after=\(query)"))))
        let retryAfter = try #require(recording.imagoError?.retryAfter)
        #expect(retryAfter > 100 && retryAfter <= 120)
    }

    @Test(arguments: HTTPTransportKind.allCases) func refusesConnectionsNobodyAnswers(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        // Port 1 on the loopback interface has no listener.
        let url = URL(string: "http://127.0.0.1:1/image.png")!
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .connectionFailed)
        #expect(error.reason == "connection refused")
        #expect(error.source == url.absoluteString)
    }
}

extension HTTPTransportTests {
    @Test(arguments: HTTPTransportKind.allCases) func keepsHeadersAcrossASameHostRedirect(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let request = TransportRequest(
            url: try loopback().url("/redirect-to?location=/echo"), headers: ["Authorization": "Bearer token"])
        let fetched = try await transport.fetchAll(request)
        let headers = try #require(try JSONSerialization.jsonObject(with: fetched.data) as? [String: String])
        #expect(headers["authorization"] == "Bearer token")
        #expect(headers["user-agent"] == "Imago/0.1")
        #expect(fetched.metadata.finalURL?.path == "/echo")
    }

    @Test(arguments: HTTPTransportKind.allCases) func idleTimeoutRestartsWithEveryChunk(_ kind: HTTPTransportKind)
        async throws
    {
        // Each chunk comes well within the idle timeout (every 0.4 s against 4 s: a starved client may fall
        // 3.6 s behind) although the whole body takes 4.4 s, longer than it: a timer that never restarted fails.
        let transport = kind.make(.init(idleTimeout: 4))
        let url = try loopback().url("/trickle?n=1200&chunk=100&interval=0.4")
        let fetched = try await transport.fetchAll(TransportRequest(url: url))
        #expect(fetched.data == expectedBody(1200))
    }
}
