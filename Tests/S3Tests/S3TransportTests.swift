import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoS3

/// The `s3` transport against a real moto server with authentication enforced (one per suite).
@Suite(.moto) struct S3TransportTests {
    private func upload(_ key: String, _ data: Data) throws -> MotoFixture {
        let fixture = try MotoFixture.shared
        try fixture.server.putObject(bucket: fixture.bucket, key: key, data: data)
        return fixture
    }

    @Test func fetchesSignedObjectsWithTheirValidators() async throws {
        let fixture = try upload("small/one.png", Data("small object".utf8))
        let fetched = try await fixture.transport().fetchAll("s3://\(fixture.bucket)/small/one.png")
        #expect(fetched.body == Data("small object".utf8))
        #expect(fetched.metadata?.statusCode == 200)
        #expect(fetched.metadata?.expectedLength == 12)
        #expect(fetched.metadata?.etag?.isEmpty == false)
        #expect(fetched.metadata?.lastModified?.isEmpty == false)
        // The response names the source, not the endpoint: the loader checks its final URL against the policy.
        #expect(fetched.metadata?.finalURL?.absoluteString == "s3://\(fixture.bucket)/small/one.png")
    }

    @Test func streamsLargeObjectsAsTheyArrive() async throws {
        // Two megabytes of a pattern that shows loss and reordering: many of libcurl's chunks, yet quick for a
        // starved moto (six random megabytes outlived the 120 s deadline on a busy machine).
        let large = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let fixture = try upload("large/two-megabytes.bin", large)
        let fetched = try await fixture.transport().fetchAll("s3://\(fixture.bucket)/large/two-megabytes.bin")
        #expect(fetched.body == large)
        #expect(fetched.chunks > 1, "the body arrives in pieces, not as one buffer")
    }

    @Test(arguments: ["with space.png", "plus+sign.png", "été/ünïcödé 写真.png", "a%percent.png", "q?mark#hash.png"])
    func keysAreEncodedAsS3Expects(_ key: String) async throws {
        let fixture = try upload("keys/\(key)", Data(key.utf8))
        let location = try S3Location(bucket: fixture.bucket, key: "keys/\(key)")
        let fetched = try await fixture.transport().fetchAll(location.description)
        #expect(fetched.body == Data(key.utf8))
        #expect(try fixture.server.requestCount(bucket: fixture.bucket, key: "keys/\(key)") == 1)
    }

    @Test func missingObjectsAreA404() async throws {
        let fixture = try MotoFixture.shared
        let error = try await fixture.transport().fetchError("s3://\(fixture.bucket)/absent.png")
        #expect(error.kind == .transportFailed(status: 404))
        #expect(error.source == "s3://\(fixture.bucket)/absent.png")
    }

    @Test func aWrongSecretIsA403AndNoKeyIsShown() async throws {
        let fixture = try upload("secret/one.png", Data("x".utf8))
        let wrongSecret = "wrong-" + fixture.secretAccessKey
        let transport = try fixture.transport(secret: wrongSecret)
        let error = try await transport.fetchError("s3://\(fixture.bucket)/secret/one.png")
        #expect(error.kind == .transportFailed(status: 403))
        for shown in ["\(error)", error.reason, String(describing: transport), "\(transport.configuration)"] {
            #expect(!shown.contains(wrongSecret) && !shown.contains(fixture.secretAccessKey))
            #expect(!shown.contains(fixture.accessKeyId))
        }
        if case .object(let settings) = transport.configuration.settings {
            #expect(settings["secretAccessKey"] == .string("(set)"))
        }
    }

    @Test func badSourcesAreRefusedBeforeAnyConnection() async throws {
        let fixture = try MotoFixture.shared
        // Only requests these sources could cause are counted: other suites share the server and run meanwhile.
        func probes() throws -> Int {
            try fixture.server.requests().filter { request, _ in
                request.contains("refused-probe") || request.hasSuffix("/\(fixture.bucket)/")
                    || request.hasSuffix("/\(fixture.bucket)")
            }.values.reduce(0, +)
        }
        let before = try probes()
        let transport = try fixture.transport()
        for source in [
            "s3://\(fixture.bucket)/a/../refused-probe.png", "s3://\(fixture.bucket)/",
            "s3://Bad_Bucket/refused-probe.png",
            "s3://bad%2Fbucket/refused-probe.png",
        ] {
            let error = try await transport.fetchError(source)
            #expect(error.kind == .invalidSource, "\(source)")
        }
        #expect(try probes() == before, "no request reached moto")
    }

    @Test func aCachedCopyRevalidatesWithItsETag() async throws {
        let fixture = try upload("revalidate/one.png", Data("first".utf8))
        let transport = try fixture.transport()
        let url = "s3://\(fixture.bucket)/revalidate/one.png"
        let first = try await transport.fetchAll(url)
        let etag = try #require(first.metadata?.etag)
        let unchanged = try await transport.fetchAll(url, ifNoneMatch: etag)
        #expect(unchanged.metadata?.statusCode == 304)
        #expect(unchanged.body.isEmpty)
        try fixture.server.putObject(bucket: fixture.bucket, key: "revalidate/one.png", data: Data("second".utf8))
        let changed = try await transport.fetchAll(url, ifNoneMatch: etag)
        #expect(changed.metadata?.statusCode == 200)
        #expect(changed.body == Data("second".utf8))
        #expect(transport.cachePolicy != nil)
    }

    @Test func keysAndRegionComeFromTheEnvironmentWhenNotConfigured() async throws {
        let fixture = try upload("environment/one.png", Data("env".utf8))
        let configuration = S3Configuration(endpoint: fixture.server.endpoint, pathStyle: true)
        let transport = try S3Transport(
            configuration: configuration,
            environment: [
                "AWS_ACCESS_KEY_ID": fixture.accessKeyId, "AWS_SECRET_ACCESS_KEY": fixture.secretAccessKey,
                "AWS_DEFAULT_REGION": "us-east-1",
            ])
        #expect(transport.client.region == "us-east-1")
        #expect(try await transport.fetchAll("s3://\(fixture.bucket)/environment/one.png").body == Data("env".utf8))
        // Without keys anywhere, the request goes unsigned and moto (enforcing authentication) refuses it.
        let anonymous = try S3Transport(configuration: configuration, environment: [:])
        let error = try await anonymous.fetchError("s3://\(fixture.bucket)/environment/one.png")
        #expect(error.kind == .transportFailed(status: 403))
    }

    @Test func theRegionDefaultsGiveAWSEndpoints() throws {
        let regional = try S3Transport(configuration: S3Configuration(), environment: ["AWS_REGION": "eu-west-3"])
        #expect(regional.client.endpoint.absoluteString == "https://s3.eu-west-3.amazonaws.com")
        let location = try S3Location(bucket: "photos", key: "a b.png")
        #expect(
            regional.client.url(bucket: location.bucket, encodedKey: location.encodedKey).absoluteString
                == "https://photos.s3.eu-west-3.amazonaws.com/a%20b.png")
        let fallback = try S3Transport(configuration: S3Configuration(), environment: [:])
        #expect(fallback.client.region == "us-east-1")
    }
}

/// A store that announces an object larger than the limit: refused from its `Content-Length`, before the body.
@Suite struct S3TransportLimitTests {
    @Test func aFiveGigabyteObjectIsRefusedBeforeReading() async throws {
        // Announces 5 GB, sends 1 MB, then holds the connection open: only a refusal from the head ends the fetch.
        let origin = try PythonLoopbackServer(
            httpScript: #"""
                import time
                class Handler(LoopbackHandler):
                    def do_GET(self):
                        self.send_response(200)
                        self.send_header("Content-Length", str(5 * 1024 ** 3))
                        self.send_header("Content-Type", "image/png")
                        self.end_headers()
                        try:
                            self.wfile.write(b"\0" * (1 << 20))
                            self.wfile.flush()
                            time.sleep(3600)
                        except OSError:
                            pass  # the client hung up, as it should
                serve(Handler)
                """#)
        defer { origin.stop() }
        let transport = try S3Transport(
            configuration: S3Configuration(
                endpoint: origin.baseURL.absoluteString, region: "us-east-1", pathStyle: true,
                accessKeyId: "AKIDEXAMPLE",
                secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                connection: CurlConfiguration(maxBytes: 50 << 20)),
            environment: [:])
        let error = try await transport.fetchError("s3://originals/huge.png")
        #expect(error.kind == .tooLarge)
        #expect(error.reason.contains("5368709120 bytes exceeds the limit"))
        #expect(!error.reason.contains("wJalrXUtnFEMI"))
    }
}
