import Testing

@testable import ImagoServer

@Suite struct ImagePathTests {
    @Test func splitsPlainSources() throws {
        let path = try ImagePath(parsing: "/sig/w=10/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1")
        #expect(path.signature == "sig")
        #expect(path.signedPart == "/w=10/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1")
        #expect(path.options == "w=10")
        #expect(path.source == "https://example.com/a b.jpg?v=1" || path.url.absoluteString.contains("example.com"))
        #expect(path.url.host == "example.com")
        // Unencoded slashes in a plain source are kept as they are.
        let raw = try ImagePath(parsing: "/unsafe/-/plain/https://example.com/dir/a.jpg")
        #expect(raw.source == "https://example.com/dir/a.jpg")
    }

    @Test func decodesBase64URLSources() throws {
        let source = "https://example.com/ü?a=1&b=2"
        let path = try ImagePath(parsing: Substring("/unsafe/-/" + Base64URL.encode(Array(source.utf8))))
        #expect(path.source == source)
    }

    /// An empty signature is a signature like any other (the signer refuses it: 403), not a malformed path.
    @Test func parsesAnEmptySignature() throws {
        let path = try ImagePath(parsing: Substring("//-/plain/https%3A%2F%2Fa"))
        #expect(path.signature.isEmpty)
        #expect(path.signedPart == "/-/plain/https%3A%2F%2Fa")
    }

    @Test func refusesMalformedPaths() {
        let bad = [
            "", "health", "/", "/unsafe", "/unsafe/", "/unsafe/-", "/unsafe/-/",
            "/unsafe/-/plain/", "/unsafe/-/plain/%G0", "/unsafe/-/plain/a.jpg", "/unsafe/-/a/b", "/unsafe/-/aGk=",
            "/unsafe/-/" + Base64URL.encode([0xc3, 0x28]), "/unsafe/-/plain/http%3A%2F%2Fa%0D%0Ab",
            "/unsafe/-/plain/http%3A%2F%2Fa%00", "/unsafe/-/plain/http%3A%2F%2Fa%7F",
            "/unsafe/-/" + Base64URL.encode(Array("http://a/\n".utf8)),
        ]
        for text in bad {
            let error = #expect(throws: RequestError.self, "\(text.debugDescription)") {
                try ImagePath(parsing: Substring(text))
            }
            #expect(error?.kind == .malformedPath && error.map { ServeFailure(answering: $0).status } == 400)
        }
    }
}
