import Foundation
import ImagoCore
import Testing

@testable import ImagoCurl
@testable import ImagoTransports

extension HTTPTransportTests {
    @Test(
        arguments: HTTPTransportKind.allCases,
        ["http://127.0.0.1/a\r\nHost: evil.example", "http://127.0.0.1/a%0D%0AX-Injected:%201", "http://a%0d%0ab/x"]
            as [EscapedArgument])
    func refusesURLsWithControlCharacters(_ kind: HTTPTransportKind, text: EscapedArgument) async throws {
        let transport = kind.make()
        let url = try #require(URL(string: text.value))
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        let error = try #require(recording.imagoError)
        #expect(error.kind == .invalidSource)
        #expect(error.reason == "invalid source: the URL contains control characters")
        #expect(error.source == url.absoluteString)
    }

    @Test(arguments: HTTPTransportKind.allCases, ["http:///image.png", "https:image.png", "http://"])
    func refusesURLsWithoutAHost(_ kind: HTTPTransportKind, text: String) async throws {
        let transport = kind.make()
        let url = try #require(URL(string: text))
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        #expect(recording.imagoError?.kind == .invalidSource)
        #expect(recording.imagoError?.reason == "invalid source: the URL has no host")
    }

    @Test(arguments: HTTPTransportKind.allCases) func refusesHeaderValuesThatWouldInjectAnotherHeader(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make()
        let request = TransportRequest(
            url: try loopback().url("/echo"), headers: ["X-Note": "a\r\nX-Injected: 1"])
        let recording = await TransportRecording.record(transport.fetch(request))
        #expect(recording.imagoError?.kind == .invalidSource)
        #expect(recording.imagoError?.reason == "invalid value for header X-Note: it contains control characters")
    }

    @Test(arguments: HTTPTransportKind.allCases) func refusesOtherSchemes(_ kind: HTTPTransportKind) async throws {
        let transport = kind.make()
        let url = URL(string: "ftp://127.0.0.1/a.png")!
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
        #expect(recording.imagoError?.kind == .unsupportedScheme)
        #expect(transport.schemes == ["http", "https"])
        #expect(!transport.serves(url))
    }

    @Test func parsesRetryAfterForms() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(HTTPResponseHead.retryAfterSeconds("120", now: now) == 120)
        #expect(HTTPResponseHead.retryAfterSeconds(" 0 ", now: now) == 0)
        #expect(HTTPResponseHead.retryAfterSeconds("Wed, 21 Oct 2015 07:29:30 GMT", now: now) == 90)
        #expect(HTTPResponseHead.retryAfterSeconds("Wednesday, 21-Oct-15 07:28:10 GMT", now: now) == 10)
        #expect(HTTPResponseHead.retryAfterSeconds("Wed Oct 21 07:28:05 2015", now: now) == 5)
        #expect(HTTPResponseHead.retryAfterSeconds("Tue, 20 Oct 2015 07:28:00 GMT", now: now) == 0)
        #expect(HTTPResponseHead.retryAfterSeconds("soon", now: now) == nil)
        #expect(HTTPResponseHead.retryAfterSeconds("-5", now: now) == nil)
    }
}
