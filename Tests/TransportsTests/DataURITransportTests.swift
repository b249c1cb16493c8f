import Foundation
import ImagoCore
import Testing

@testable import ImagoTransports

@Suite struct DataURITransportTests {
    let transport = DataURITransport()

    private func fetch(_ text: String, transport: DataURITransport = DataURITransport()) async throws
        -> TransportRecording
    {
        let url = try ImageRequest.url(from: text)
        return await TransportRecording.record(transport.fetch(TransportRequest(url: url)))
    }

    @Test func decodesBase64WithItsMediaType() async throws {
        let payload = expectedBody(300)
        let recording = try await fetch("data:image/png;base64,\(payload.base64EncodedString())")
        #expect(recording.error == nil)
        #expect(recording.followsEventContract)
        #expect(recording.body == payload)
        #expect(recording.metadata.first?.contentType == "image/png")
        #expect(recording.metadata.first?.expectedLength == 300)
    }

    @Test func decodesPercentEncodedText() async throws {
        let recording = try await fetch("data:,A%20brief%20note")
        #expect(recording.body == Data("A brief note".utf8))
        #expect(recording.metadata.first?.contentType == "text/plain;charset=US-ASCII")
    }

    @Test func decodesPercentEncodedBinary() async throws {
        let recording = try await fetch("data:application/octet-stream,%00%FF%10abc")
        #expect(recording.body == Data([0x00, 0xFF, 0x10, 0x61, 0x62, 0x63]))
    }

    @Test func keepsMediaTypeParameters() async throws {
        let recording = try await fetch("data:Image/SVG+XML;Charset=utf-8;name=logo%20a.svg;base64,PHN2Zy8+")
        #expect(recording.body == Data("<svg/>".utf8))
        #expect(recording.metadata.first?.contentType == "image/svg+xml;charset=utf-8;name=logo a.svg")
    }

    @Test func parametersWithoutAMediaTypeMeanTextPlain() async throws {
        let recording = try await fetch("data:;charset=utf-8,%C3%A9")
        #expect(recording.body == Data("é".utf8))
        #expect(recording.metadata.first?.contentType == "text/plain;charset=utf-8")
    }

    @Test(
        arguments: ["aGVs bG8g\td29y\nbGQ=", "aGVsbG8gd29ybGQ", "aGVsbG8gd29ybGQ=", " aGVsbG8gd29ybGQ= "]
            as [EscapedArgument])
    func ignoresWhitespaceAndMissingPaddingInBase64(payload: EscapedArgument) async throws {
        let encoded = payload.value.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics.union(["=", "+", "/"]))!
        let recording = try await fetch("data:text/plain;base64,\(encoded)")
        #expect(recording.error == nil)
        #expect(recording.body == Data("hello world".utf8))
    }

    @Test func emptyPayloadGivesOnlyTheResponse() async throws {
        let recording = try await fetch("data:image/gif;base64,")
        #expect(recording.error == nil)
        #expect(recording.events == ["response"])
        #expect(recording.metadata.first?.expectedLength == 0)
    }

    @Test func ignoresTheFragment() async throws {
        let recording = try await fetch("data:text/plain,abc#fragment")
        #expect(recording.body == Data("abc".utf8))
    }

    @Test func deliversLargePayloadsInChunks() async throws {
        let payload = expectedBody(2_500_000)
        let recording = try await fetch("data:application/octet-stream;base64,\(payload.base64EncodedString())")
        #expect(recording.chunks.count == 3)
        #expect(recording.body == payload)
    }

    @Test(arguments: [
        ("data:image/png;base64", "malformed data: URI: no \",\" separates the media type from the data"),
        ("data:image;base64,AAAA", "malformed data: URI: invalid media type \"image\" (expected type/subtype)"),
        (
            "data:image/png;charset,AAAA",
            "malformed data: URI: invalid parameter \"charset\" (expected attribute=value)"
        ),
        ("data:image/png;base64,AA*A", "malformed data: URI: invalid base64: unexpected \"*\" at position 2"),
        (
            "data:image/png;base64,AAAAA",
            "malformed data: URI: invalid base64: 5 symbols is not a length an encoder produces"
        ),
        ("data:image/png;base64,AA=A", "malformed data: URI: invalid base64: unexpected \"=\" at position 2"),
    ])
    func refusesMalformedURIsClearly(text: String, reason: String) async throws {
        let recording = try await fetch(text)
        let error = try #require(recording.imagoError)
        #expect(error.kind == .invalidSource)
        #expect(error.reason == reason)
        #expect(error.source != nil)
        #expect(recording.events.isEmpty)
    }

    @Test func foundationKeepsAStrayPercentSignAsData() async throws {
        // URL(string:) encodes a lone "%" as "%25", so the payload keeps it instead of being malformed.
        let recording = try await fetch("data:text/plain,100%")
        #expect(recording.body == Data("100%".utf8))
    }

    @Test func refusesPayloadsOverTheCapBeforeDecoding() async throws {
        let transport = DataURITransport(configuration: .init(maxBytes: 100))
        let base64 = try await fetch("data:;base64,\(expectedBody(300).base64EncodedString())", transport: transport)
        #expect(base64.imagoError?.kind == .tooLarge)
        #expect(base64.imagoError?.reason == "too large: 300 bytes exceeds the limit of 100 bytes")
        #expect(base64.events.isEmpty)

        let percent = try await fetch("data:," + String(repeating: "%41", count: 400), transport: transport)
        #expect(percent.imagoError?.kind == .tooLarge)
        let exactFit = try await fetch("data:," + String(repeating: "a", count: 100), transport: transport)
        #expect(exactFit.body.count == 100)
    }

    @Test func errorsNameTheSourceShortened() async throws {
        let text = "data:image/png;base64," + String(repeating: "A", count: 200) + "*"
        let recording = try await fetch(text)
        let error = try #require(recording.imagoError)
        #expect(error.source == text)
        #expect(error.description.hasPrefix("data:image/png;base64,AAAA"))
        #expect(error.description.count < 150)
    }
}

/// The parser on its own, for inputs a `URL` cannot carry.
@Suite struct DataURIParserTests {
    @Test(arguments: ["data:text/plain,100%", "data:text/plain,%zz", "data:text/plain,%4"])
    func refusesInvalidPercentEncoding(text: String) throws {
        #expect {
            try DataURI(text, maxBytes: 1000)
        } throws: { error in
            (error as? ImagoError)?.reason == "malformed data: URI: invalid percent-encoding in the data"
        }
    }

    @Test func acceptsNonZeroTrailingBitsAsBrowsersDo() throws {
        // "QR" decodes to "A" with leftover bits set; a strict decoder refuses it, browsers do not.
        #expect(try DataURI("data:;base64,QR==", maxBytes: 10).data == Data("A".utf8))
    }
}
