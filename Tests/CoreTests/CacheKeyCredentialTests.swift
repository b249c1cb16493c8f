import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

@Suite struct CacheKeyCredentialTests {
    static let url = URL(string: "https://example.com/a.png")!

    static func request(_ headers: [String: String] = [:], cacheKey: String? = nil) -> ImageRequest {
        ImageRequest(url: url, headers: headers, cacheKey: cacheKey)
    }

    @Test(arguments: ["Authorization", "authorization", "Cookie", "COOKIE", "Proxy-Authorization"])
    func credentialsSplitBothKeys(header: String) {
        let none = Self.request()
        let a = Self.request([header: "A"])
        let b = Self.request([header: "B"])
        let aAgain = Self.request([header: "A"])
        for key in [\ImageRequest.dataCacheKey, \ImageRequest.imageCacheKey] {
            #expect(Set([none, a, b].map { $0[keyPath: key] }).count == 3)
            #expect(a[keyPath: key] == aAgain[keyPath: key])
        }
        // The credential itself never appears in a key.
        #expect(!a.imageCacheKey.rawValue.contains("A"))
    }

    @Test func otherHeadersDoNotSplitTheCaches() {
        let plain = Self.request()
        let other = Self.request(["User-Agent": "imago", "X-Request-ID": "42"])
        #expect(plain.dataCacheKey == other.dataCacheKey)
        #expect(plain.imageCacheKey == other.imageCacheKey)
    }

    @Test func anExplicitKeyReplacesTheSourceButKeepsCredentialsApart() {
        let signed1 = ImageRequest(url: URL(string: "https://x/a.png?sig=1")!, cacheKey: "avatar:42")
        let signed2 = ImageRequest(url: URL(string: "https://x/a.png?sig=2")!, cacheKey: "avatar:42")
        #expect(signed1.dataCacheKey == signed2.dataCacheKey)
        #expect(signed1.imageCacheKey == signed2.imageCacheKey)
        #expect(signed1.dataCacheKey.rawValue == "avatar:42")
        var credentialed = signed1
        credentialed.headers = ["Cookie": "session=1"]
        #expect(credentialed.dataCacheKey != signed1.dataCacheKey)
        #expect(Self.request(cacheKey: "avatar:42").imageCacheKey != Self.request().imageCacheKey)
    }

    @Test func requestsAreHashableByTheirFields() {
        let a = Self.request(["Cookie": "1"])
        #expect(a == Self.request(["Cookie": "1"]))
        #expect(a != Self.request(["Cookie": "2"]))
        var resized = a
        resized.processors = [ResizeProcessor(width: 10, height: 10)]
        var resizedAgain = a
        resizedAgain.processors = [ResizeProcessor(width: 10, height: 10)]
        #expect(resized == resizedAgain)
        #expect(Set([a, resized, resizedAgain, Self.request(cacheKey: "k")]).count == 3)
    }

    @Test func formatsAreStringLiterals() {
        let avif: ImageFormat = "AVIF"
        #expect(avif == ImageFormat("avif"))
        #expect(avif.rawValue == "avif")
    }

    @Test func loadsWithDifferentCredentialsNeverShareAnEntry() async throws {
        let env = FakeEnvironment()
        env.transport.serve("/a", data: FakeDecoder.encode())
        func load(_ headers: [String: String]) async throws -> ImageResponse {
            var request = env.request("/a")
            request.headers = headers
            return try await env.loader.image(for: request)
        }
        #expect(try await load(["Authorization": "Bearer A"]).origin == .network)
        #expect(try await load(["Authorization": "Bearer B"]).origin == .network)
        #expect(try await load([:]).origin == .network)
        #expect(try await load(["Cookie": "s=1"]).origin == .network)
        #expect(env.transport.callCount == 4)
        #expect(try await load(["Authorization": "Bearer A"]).origin == .memory)
        #expect(try await load(["User-Agent": "other"]).origin == .memory)
        #expect(env.transport.callCount == 4)
        #expect(env.transport.requests.map { $0.headers["Authorization"] } == ["Bearer A", "Bearer B", nil, nil])

        // A second loader over the same data cache: the same credentials are served from it, others are not.
        var builder = PluginRegistry.Builder()
        builder.add(env.transport)
        builder.add(env.decoder)
        builder.dataCache = env.dataCache
        let registry = builder.build()
        let fresh = ImageLoader(registry: registry)
        var a = env.request("/a")
        a.headers = ["Authorization": "Bearer A"]
        var c = env.request("/a")
        c.headers = ["Authorization": "Bearer C"]
        env.dataCache.keys.forEach { key in #expect(!key.rawValue.contains("Bearer")) }
        #expect(env.dataCache.keys.count == 4)
        _ = (try await fresh.image(for: a), try await fresh.image(for: c))
        #expect(env.transport.callCount == 5)
        #expect(env.transport.requests.last?.headers["Authorization"] == "Bearer C")
    }
}
