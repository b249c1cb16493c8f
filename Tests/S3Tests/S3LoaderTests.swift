import Foundation
import Imago
import ImagoTestSupport
import Testing

/// The loader with the `s3` transport and an `s3` data cache, both built from a configuration, as a fleet member
/// runs them: originals fetched once from the store, answers shared through the bucket.
@Suite(.moto) struct S3LoaderTests {
    /// A loader (no memory cache) whose transports include `s3` and whose data cache is `s3` under `prefix`.
    private func loader(_ fixture: MotoFixture, prefix: String) throws -> ImageLoader {
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
        return ImageLoader(registry: try factories.configured(by: configuration))
    }

    @Test func anOriginalIsFetchedOnceThenSharedThroughTheBucket() async throws {
        let fixture = try MotoFixture.shared
        let raster = try Raster(
            width: 24, height: 16, pixels: NoisePixels.rgba(width: 24, height: 16, seed: 25))
        let png = try PNGCodec().encode(DecodedImage(raster: raster, format: .png))
        try fixture.server.putObject(bucket: fixture.bucket, key: "loader/ph oto+1.png", data: png)
        let prefix = "loader-\(UUID().uuidString)/"
        let request = ImageRequest(url: try #require(URL(string: "s3://\(fixture.bucket)/loader/ph%20oto+1.png")))

        let first = try await loader(fixture, prefix: prefix).image(for: request)
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

    @Test func aMissingOriginalFailsWithItsStatus() async throws {
        let fixture = try MotoFixture.shared
        let request = ImageRequest(url: try #require(URL(string: "s3://\(fixture.bucket)/loader/absent.png")))
        let error = try await #require(throws: ImagoError.self) {
            try await loader(fixture, prefix: "loader-absent/").image(for: request)
        }
        #expect(error.kind == .transportFailed(status: 404))
    }
}
