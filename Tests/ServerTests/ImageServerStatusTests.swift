import Foundation
import Imago
import Testing

@testable import ImagoServer

extension ServerIntegrationTests {
    /// Every error status of the contract, each with a one-line text/plain body and `Cache-Control: no-store`.
    @Suite struct ImageServerStatusTests {
        func expectError(_ response: RawResponse, _ status: Int, _ comment: Comment? = nil) {
            #expect(response.status == status, comment)
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8", comment)
            #expect(response.header("Cache-Control") == "no-store", comment)
            #expect(response.text.hasSuffix("\n") && response.text.dropLast().contains("\n") == false, comment)
        }

        @Test func malformedPathsAndOptionsAre400() async throws {
            let fixture = try ServerFixture()
            let source = "plain/" + ServerFixture.encode(fixture.origin.url("img/photo.jpg"))
            let cases = [
                "/unsafe", "/unsafe/w=10", "/unsafe/w=10/", "/unsafe//\(source)",
                "/unsafe/w=0/\(source)", "/unsafe/w=-5/\(source)", "/unsafe/w=5.5/\(source)", "/unsafe/w=1e3/\(source)",
                "/unsafe/w=99999999999999999999/\(source)", "/unsafe/w=8193/\(source)",
                "/unsafe/w=5000,dpr=2/\(source)",
                "/unsafe/h=abc/\(source)", "/unsafe/fit=squash/\(source)", "/unsafe/enlarge=2/\(source)",
                "/unsafe/dpr=5/\(source)", "/unsafe/dpr=0.5/\(source)", "/unsafe/f=bmp/\(source)",
                "/unsafe/q=0/\(source)",
                "/unsafe/q=101/\(source)", "/unsafe/frame=-1/\(source)", "/unsafe/size=10/\(source)",
                "/unsafe/w=10,w=20/\(source)", "/unsafe/w=10,,h=5/\(source)", "/unsafe/w/\(source)",
                "/unsafe/-/plain/", "/unsafe/-/plain/%zz", "/unsafe/-/not*base64", "/unsafe/-/aGVsbG8=",
                "/unsafe/-/" + Base64URL.encode([0xff, 0xfe, 0x00]), "/unsafe/-/plain/relative/path",
                "/unsafe/-/plain/http%3A%2F%2F127.0.0.1%2Fa%0D%0AX-Injected%3A%201",
                "/unsafe/-/plain/http%3A%2F%2F127.0.0.1%2Fa%00b", "/unsafe/-/plain/http%3A%2F%2F127.0.0.1%2Fa%0Ab",
                "/unsafe/-/" + Base64URL.encode(Array("http://127.0.0.1/a\r\nb".utf8)),
            ]
            for path in cases {
                expectError(try await fixture.get(path), 400, "\(path)")
            }
            // The message names the bad item.
            #expect(try await fixture.get("/unsafe/fit=squash/\(source)").text.contains("fit=squash"))
            #expect(try await fixture.get("/unsafe/size=10/\(source)").text.contains("size=10"))
            #expect(try await fixture.origin.count() == 0)
        }

        @Test func sourcesOutsideTheAllowListAndOtherSchemesAre403() async throws {
            let fixture = try ServerFixture()
            for source in [
                "http://127.0.0.1:1/img/photo.jpg", "https://example.com/a.jpg", "file:///etc/passwd",
                "data:image/png;base64,iVBORw0KGgo=", "ftp://127.0.0.1/a.jpg",
            ] {
                expectError(try await fixture.get("/unsafe/-/plain/" + ServerFixture.encode(source)), 403, "\(source)")
            }
            let open = try ServerFixture { settings, _, _ in settings.allowedSources = [] }
            for source in ["file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo="] {
                expectError(try await open.get("/unsafe/-/plain/" + ServerFixture.encode(source)), 403, "\(source)")
            }
            #expect(try await fixture.origin.count() == 0)
        }

        @Test func sourceNotFoundIs404AndOtherMethodsAre405() async throws {
            let fixture = try ServerFixture()
            expectError(try await fixture.get(fixture.path(origin: "img/missing.jpg")), 404)
            expectError(try await fixture.get(fixture.path(origin: "status/404")), 404)
            let post = try await fixture.get(fixture.path(origin: "img/photo.jpg"), method: "POST")
            expectError(post, 405)
            #expect(post.header("Allow") == "GET, HEAD")
            expectError(try await fixture.get("/health", method: "DELETE"), 405)
        }

        @Test func oversizedSourcesAre413AndNonImages415AndPixelLimits422() async throws {
            let fixture = try ServerFixture { settings, _, _ in settings.maxSourceBytes = 600 }
            let size = try Data(contentsOf: fixture.folder.appendingPathComponent("big.png")).count
            #expect(size > 600)
            expectError(try await fixture.get(fixture.path(origin: "img/big.png")), 413)
            expectError(try await fixture.get(fixture.path(origin: "text")), 415)
            expectError(try await fixture.get(fixture.path(origin: "img/notes.png")), 415)
            let pixels = try ServerFixture { settings, _, _ in settings.maxSourcePixels = 100 * 100 }
            expectError(try await pixels.get(pixels.path("w=10", origin: "img/big.png")), 422)
            #expect(try await pixels.get(pixels.path("w=10", origin: "img/logo.png")).status == 200)
        }

        @Test func failingSourcesAre502AndSlowOnes504() async throws {
            let fixture = try ServerFixture { settings, _, _ in settings.sourceTimeout = 1 }
            expectError(try await fixture.get(fixture.path(origin: "status/503")), 502)
            expectError(try await fixture.get(fixture.path(origin: "status/500")), 502)
            expectError(try await fixture.get(fixture.path(origin: "cut/big.png")), 502)
            let refused = "/unsafe/-/plain/" + ServerFixture.encode("http://127.0.0.1:1/img/photo.jpg")
            let anyPort = try ServerFixture { settings, _, _ in settings.allowedSources = ["http://127.0.0.1:1/"] }
            expectError(try await anyPort.get(refused), 502)
            expectError(try await fixture.get(fixture.path(origin: "hang")), 504)
        }

        @Test func overloadIs503WithRetryAfter() async throws {
            let fixture = try ServerFixture { settings, _, _ in
                settings.maxConcurrentRequests = 1
                settings.maxQueuedRequests = 1
            }
            // Three different slow sources: one runs, one waits, the third is shed.
            let responses = try await RawHTTP.concurrently(3) { index in
                usleep(UInt32(index) * 150_000)
                return try fixture.getBlocking(fixture.path("w=\(10 + index)", origin: "slow/1500/photo.jpg"))
            }
            #expect(responses.map(\.status) == [200, 200, 503])
            expectError(responses[2], 503)
            #expect(responses[2].header("Retry-After") == "1")
            let metrics = try await fixture.get("/metrics").text
            #expect(metrics.contains("imago_shed_requests_total 1"))
        }

        @Test func signaturesAreCheckedWithEveryKey() async throws {
            let fixture = try ServerFixture { settings, _, _ in
                settings.signingKeys = ["first-secret", "second-secret"]
            }
            let unsigned = fixture.path("w=20", origin: "img/photo.jpg")  // /unsafe/…
            let rest = String(unsigned.dropFirst("/unsafe".count))
            for key in 0..<2 {
                let signature = URLSigner(keys: ["first-secret", "second-secret"]).signature(for: rest, keyIndex: key)
                #expect(try await fixture.get("/" + signature + rest).status == 200, "key \(key)")
            }
            expectError(try await fixture.get(unsigned), 403)
            let other = URLSigner(keys: ["not-a-key"]).signature(for: rest)
            expectError(try await fixture.get("/" + other + rest), 403)
            // A signature for other options does not carry over.
            let signed = URLSigner(keys: ["first-secret"]).signature(for: rest)
            expectError(try await fixture.get("/" + signed + rest.replacingOccurrences(of: "w=20", with: "w=21")), 403)
            expectError(try await fixture.get("/" + signed.dropLast() + rest), 403)
            // With no keys, only `unsafe` passes.
            let open = try ServerFixture()
            expectError(try await open.get("/" + signed + rest), 403)
        }
    }
}
