import Foundation
import Testing

@testable import ImagoServer

/// The shared result store over a real data cache (a disk folder): what it reads back is what was stored for
/// that very request, or a miss.
@Suite struct ResultStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-results-\(UUID().uuidString)")
    let cache: DiskDataCache
    let store: ResultStore
    let fleet: ServeFleet

    init() throws {
        cache = DiskDataCache(configuration: DiskDataCache.Configuration(directory: folder))
        fleet = try ServeFleet(settings: ServeSettings())
        store = ResultStore(cache: cache, fleet: fleet)
    }

    func image(_ text: String = "pixels") -> RenderedImage {
        let body = Data(text.utf8)
        return RenderedImage(
            body: body, contentType: "image/webp", etag: RenderedImage.etag(for: body), sourceOrigin: "network",
            lastModified: "Tue, 01 Dec 2026 10:00:00 GMT")
    }

    var later: Date { Date().addingTimeInterval(3600) }

    @Test func readsBackWhatItStored() async throws {
        await store.store(image(), for: "w:100|q85|webp|https://a/x.png", expires: later)
        let read = try #require(await store.image(for: "w:100|q85|webp|https://a/x.png"))
        #expect(read.body == image().body && read.etag == image().etag && read.contentType == "image/webp")
        #expect(read.lastModified == "Tue, 01 Dec 2026 10:00:00 GMT" && read.sourceOrigin == "store")
        #expect(await store.image(for: "w:100|q85|jpeg|https://a/x.png") == nil)
        // A cache may hand back a slice of a larger buffer: it is read where it starts.
        let key = "w:100|q85|webp|https://a/x.png"
        let slice = (Data([0xAA, 0xBB]) + ResultStore.encode(image(), key: key)).dropFirst(2)
        #expect(ResultStore.decode(slice, key: key)?.body == image().body)
    }

    @Test func keepsTheDecisionWithTheResultAndBesideIt() async throws {
        let key = "q=auto|webp|https://a/z.png"
        let decision = QualityDecision(format: .webp, quality: 72, dssim: 0.0183, target: 0.021)
        var searched = image()
        searched.quality = decision
        await store.store(searched, for: key, expires: later)
        #expect(await store.image(for: key)?.quality == decision)
        await store.store(decision, for: key)
        #expect(await store.decision(for: key) == decision)
        #expect(await store.decision(for: key + "x") == nil)
        // Damage of any kind is a miss: a flipped digit (still valid JSON), a truncation, another key's entry.
        let entry = ResultStore.encode(decision, key: key)
        #expect(ResultStore.decodeDecision(entry, key: key) == decision)
        let digit = try #require(entry.lastIndex(of: UInt8(ascii: "7")))
        var flipped = entry
        flipped[digit] = UInt8(ascii: "8")
        #expect(ResultStore.decodeDecision(flipped, key: key) == nil)
        #expect(ResultStore.decodeDecision(entry.dropLast(3), key: key) == nil)
        #expect(ResultStore.decodeDecision(entry, key: "another") == nil)
        let cacheKey = CacheKey(ResultStore.decisionPrefix + key)
        try await cache.store(DataCacheEntry(data: flipped, metadata: CacheMetadata(expires: later)), for: cacheKey)
        #expect(await store.decision(for: key) == nil)
        #expect(await cache.entry(for: cacheKey) == nil)
    }

    @Test func aDamagedEntryIsAMissAndIsRemoved() async throws {
        let key = "w:10|-|png|https://a/y.png"
        var stored = ResultStore.encode(image(), key: key)
        stored[stored.count - 1] ^= 0x01  // one bit of the body
        let cacheKey = CacheKey(ResultStore.keyPrefix + key)
        try await cache.store(DataCacheEntry(data: stored, metadata: CacheMetadata(expires: later)), for: cacheKey)
        #expect(await store.image(for: key) == nil)
        #expect(await cache.entry(for: cacheKey) == nil, "the damaged entry is removed")
        for cut in [0, 10, 20, stored.count - 1] {
            let truncated = ResultStore.encode(image(), key: key).prefix(cut)
            try await cache.store(
                DataCacheEntry(data: truncated, metadata: CacheMetadata(expires: later)), for: cacheKey)
            #expect(await store.image(for: key) == nil, "truncated at \(cut)")
        }
    }

    @Test func anEntryWrittenForAnotherKeyIsAMiss() async throws {
        let foreign = ResultStore.encode(image("theirs"), key: "w:10|-|png|https://a/other.png")
        let key = "w:10|-|png|https://a/mine.png"
        try await cache.store(
            DataCacheEntry(data: foreign, metadata: CacheMetadata(expires: later)),
            for: CacheKey(ResultStore.keyPrefix + key))
        #expect(await store.image(for: key) == nil)
        #expect(ResultStore.decode(foreign, key: "w:10|-|png|https://a/other.png")?.body == Data("theirs".utf8))
    }

    @Test func anExpiredEntryIsAMiss() async throws {
        await store.store(image(), for: "k", expires: Date().addingTimeInterval(-1))
        #expect(await store.image(for: "k") == nil)
    }

    @Test func fallbacksAndOtherStatusesAreNotStored() async throws {
        var fallback = image()
        fallback.status = 404
        await store.store(fallback, for: "f", expires: later)
        #expect(await store.image(for: "f") == nil)
    }

    @Test func theKeyCarriesTheNegotiatedFormat() throws {
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        let server = try ImageServer(configuration: ImagoConfiguration(), settings: settings)
        defer { server.stop() }
        func job(_ options: String, accept: String?, kind: RenderJob.Kind = .image) throws -> RenderJob {
            let target = "/unsafe/\(options)/plain/https%3A%2F%2Fimages.example.com%2Fa.jpg"
            let request = HTTPRequest(
                method: "GET", target: target, accept: accept, time: Date(), start: ContinuousClock.now)
            return try server.job(kind, target: Substring(target), for: request)
        }
        let webp = try job("w=10,f=auto", accept: "image/webp,*/*")
        let jpeg = try job("w=10,f=auto", accept: "image/jpeg")
        #expect(webp.key != jpeg.key && webp.format == .webp && jpeg.format == .jpeg && webp.varies)
        #expect(try job("w=10,f=png", accept: "image/webp").key == job("w=10,f=png", accept: nil).key)
        // An image and the report on it are two answers.
        #expect(try job("w=10", accept: nil).key != job("w=10", accept: nil, kind: .info).key)
    }
}
