import Foundation
import ImagoS3
import ImagoTestSupport
import Testing

/// One moto server per suite, with authentication enforced and a bucket ready: the keys of the only IAM user
/// that may use it, and the configurations that reach it.
final class MotoFixture: Sendable {
    /// The fixture of the suite being run (set by the `.moto` trait).
    @TaskLocal static var current: MotoFixture?

    /// The suite's fixture; fails the test when the suite has no `.moto` trait.
    static var shared: MotoFixture {
        get throws { try #require(current, "the suite needs the .moto trait") }
    }

    let server: MotoServer
    let accessKeyId: String
    let secretAccessKey: String
    /// A bucket created before authentication was switched on.
    let bucket = "imago-originals"

    init() throws {
        server = try MotoServer()
        try server.createBucket(bucket)
        (accessKeyId, secretAccessKey) = try server.enforceAuthentication()
    }

    /// Path-style settings for moto with the IAM user's keys (or `secret` instead of the real secret).
    func configuration(secret: String? = nil) -> S3Configuration {
        S3Configuration(
            endpoint: server.endpoint, region: MotoServer.region, pathStyle: true, accessKeyId: accessKeyId,
            secretAccessKey: secret ?? secretAccessKey)
    }

    /// A transport to moto with the IAM user's keys (none read from the environment).
    func transport(secret: String? = nil, maxBytes: Int = 50 << 20) throws -> S3Transport {
        var configuration = configuration(secret: secret)
        configuration.connection.maxBytes = maxBytes
        return try S3Transport(configuration: configuration, environment: [:])
    }
}

/// Runs a suite with one moto server, started before its first test and stopped (SIGKILL) after its last.
struct MotoTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let fixture = try MotoFixture()
        defer { fixture.server.stop() }
        try await MotoFixture.$current.withValue(fixture) { try await function() }
    }
}

extension Trait where Self == MotoTrait {
    /// One moto server for the whole suite: `MotoFixture.shared`.
    static var moto: Self { Self() }
}

/// What one fetch gave.
struct Fetched {
    var metadata: TransportMetadata?
    var body = Data()
    var chunks = 0
}

extension ImageTransport {
    /// Fetches `url` to its end.
    func fetchAll(_ url: String, ifNoneMatch: String? = nil) async throws -> Fetched {
        var fetched = Fetched()
        let request = TransportRequest(url: try #require(URL(string: url)), ifNoneMatch: ifNoneMatch)
        for try await event in fetch(request) {
            switch event {
            case .response(let metadata): fetched.metadata = metadata
            case .bytes(let bytes):
                fetched.body.append(bytes)
                fetched.chunks += 1
            }
        }
        return fetched
    }

    /// The error fetching `url` ends with (a test fails if it ends without one).
    func fetchError(_ url: String) async throws -> ImagoError {
        do {
            _ = try await fetchAll(url)
        } catch let error as ImagoError {
            return error
        }
        Issue.record("fetching \(url) succeeded")
        return ImagoError(.invalidSource, "no error")
    }
}
