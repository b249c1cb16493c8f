import Foundation
import Imago
import ImagoTestSupport
import Testing

/// The loader with the `s3` transport and an `s3` data cache, both built from a configuration, as a fleet member
/// runs them: originals fetched once from the store, answers shared through the bucket.
@Suite(.moto) struct S3LoaderTests {
    /// A loader (no memory cache) whose transports include `s3` and whose data cache is `s3` under `prefix`.
    private func loader(
        _ fixture: MotoFixture, prefix: String, policy: (any SourceAccessPolicy)? = nil
    ) throws -> ImageLoader {
        let factories = PluginRegistry.standardFactories()
        let connection: [String: JSONValue] = [
            "endpoint": .string(fixture.server.endpoint), "region": .string(MotoServer.region),
            "pathStyle": .bool(true), "accessKeyId": .string(fixture.accessKeyId),
            "secretAccessKey": .string(fixture.secretAccessKey),
        ]
        var configuration = factories.standardConfiguration()
        configuration.transports.append(PluginSpec("s3", settings: .object(connection)))
        configuration.imageCache = nil
        configuration.dataCache = PluginSpec(
            "s3",
            settings: .object(
                connection.merging(["bucket": .string(fixture.bucket), "prefix": .string(prefix)]) { a, _ in a }))
        return ImageLoader(registry: try factories.configured(by: configuration), sourcePolicy: policy)
    }

    @Test func anOriginalIsFetchedOnceThenSharedThroughTheBucket() async throws {
        let fixture = try MotoFixture.shared
        let raster = try Raster(
            width: 24, height: 16, pixels: NoisePixels.rgba(width: 24, height: 16, seed: 25))
        let png = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
        let put = ContinuousClock.now
        try fixture.server.putObject(bucket: fixture.bucket, key: "loader/ph oto+1.png", data: png)
        let prefix = "loader-\(UUID().uuidString)/"
        let request = ImageRequest(url: try #require(URL(string: "s3://\(fixture.bucket)/loader/ph%20oto+1.png")))

        let firstLoader = try loader(fixture, prefix: prefix)
        let first = try await firstLoader.image(for: request)
        // The bucket write runs beside the decode: the second loader looks only once it has landed.
        await firstLoader.waitForPendingWrites()
        // S3 sends no freshness, so the copy is fresh for 10% of the time from the object's Last-Modified to the
        // fetch (RFC 9111's heuristic; the headers in whole seconds). On a loaded machine that can outlast the gap
        // before the second load, which then needs no request: wait it out, so the copy is stale and revalidated.
        try await Task.sleep(for: (ContinuousClock.now - put) * 0.1 + .seconds(1))
        #expect(first.origin == .network)
        #expect(first.image.raster == raster)
        let second = try await loader(fixture, prefix: prefix).image(for: request)
        #expect(second.origin == .dataCache && second.cacheLayer == "s3")
        #expect(second.image.raster == raster)
        // Fetched whole once; the second loader's copy (S3 sends no freshness) was revalidated with its ETag.
        let key = "loader/ph oto+1.png"
        #expect(try fixture.server.responseCount(status: 200, bucket: fixture.bucket, key: key) == 1)
        #expect(try fixture.server.responseCount(status: 304, bucket: fixture.bucket, key: key) == 1)
        #expect(try fixture.server.requestCount(bucket: fixture.bucket, key: key) == 2)
    }

    @Test func aSourcePolicySeesTheSourceNeverTheEndpoint() async throws {
        let fixture = try MotoFixture.shared
        let raster = try Raster(width: 8, height: 8, pixels: NoisePixels.rgba(width: 8, height: 8, seed: 3))
        let png = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
        try fixture.server.putObject(bucket: fixture.bucket, key: "policy/a.png", data: png)
        let policy = OnlyObjects(bucket: fixture.bucket)
        let request = ImageRequest(url: try #require(URL(string: "s3://\(fixture.bucket)/policy/a.png")))
        let response = try await loader(fixture, prefix: "policy-\(UUID().uuidString)/", policy: policy)
            .image(for: request)
        #expect(response.image.raster == raster)
        #expect(policy.checked.allSatisfy { $0.hasPrefix("s3://") }, "\(policy.checked)")
        #expect(policy.connections.isEmpty, "the operator's endpoint is not an address the policy judges")
    }

    @Test func aMissingOriginalFailsWithItsStatus() async throws {
        let fixture = try MotoFixture.shared
        let request = ImageRequest(url: try #require(URL(string: "s3://\(fixture.bucket)/loader/absent.png")))
        let error = try await #require(throws: ImagoError.self) {
            try await loader(fixture, prefix: "loader-absent/").image(for: request)
        }
        #expect(error.kind == .transportFailed(status: 404))
    }
}

/// A policy admitting the objects of one bucket and nothing else (like `imago serve`'s with an `s3://` prefix),
/// recording what it was asked.
private final class OnlyObjects: SourceAccessPolicy, @unchecked Sendable {  // state guarded by `lock`
    let bucket: String
    private let lock = NSLock()
    private var checkedURLs: [String] = []
    private var connectionIPs: [String] = []

    init(bucket: String) { self.bucket = bucket }

    var checked: [String] { lock.withLock { checkedURLs } }
    var connections: [String] { lock.withLock { connectionIPs } }

    func check(_ url: URL) throws -> URL {
        lock.withLock { checkedURLs.append(url.absoluteString) }
        guard url.absoluteString.hasPrefix("s3://\(bucket)/") else {
            throw ImagoError(.addressRefused, "not an object of \(bucket)", source: url.absoluteString)
        }
        return url
    }

    func allowsConnection(to ip: String) -> Bool {
        lock.withLock { connectionIPs.append(ip) }
        return false
    }
}
