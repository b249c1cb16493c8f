import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoS3

/// What goes on the wire, seen by a small Python origin used as the endpoint: the encoded path, the signature's
/// scope, the payload hash and the session token libcurl 7.88 does not add itself.
@Suite struct S3TransportWireTests {
    @Test func requestsCarryTheEncodedKeyTheSignatureAndTheToken() async throws {
        let origin = try PythonLoopbackServer(
            httpScript: #"""
                import json
                class Handler(LoopbackHandler):
                    def do_GET(self):
                        seen = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}}
                        self.reply(200, json.dumps(seen).encode(), {"Content-Type": "application/json"})
                serve(Handler)
                """#)
        defer { origin.stop() }
        let transport = try S3Transport(
            configuration: S3Configuration(endpoint: origin.baseURL.absoluteString, pathStyle: true),
            environment: [
                "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                "AWS_SESSION_TOKEN": "session-token-value", "AWS_REGION": "eu-west-3",
            ])
        let fetched = try await transport.fetchAll("s3://photos/a%20b+c/%C3%A9t%C3%A9.png")
        let seen = try #require(try JSONSerialization.jsonObject(with: fetched.body) as? [String: Any])
        let headers = try #require(seen["headers"] as? [String: String])
        #expect(seen["path"] as? String == "/photos/a%20b%2Bc/%C3%A9t%C3%A9.png")
        #expect(headers["x-amz-content-sha256"] == "UNSIGNED-PAYLOAD")
        #expect(headers["x-amz-security-token"] == "session-token-value")
        let authorization = try #require(headers["authorization"])
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
        #expect(authorization.contains("/eu-west-3/s3/aws4_request"))
        #expect(authorization.contains("x-amz-content-sha256"))
        #expect(!authorization.contains("wJalrXUtnFEMI"))
        #expect(headers["user-agent"] == "Imago/0.1")
    }
}
