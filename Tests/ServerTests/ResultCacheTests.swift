import Foundation
import Testing

@testable import ImagoServer

@Suite struct ResultCacheTests {
    func image(_ size: Int) -> RenderedImage {
        RenderedImage(body: Data(count: size), contentType: "image/jpeg", etag: "\"x\"", sourceOrigin: "network")
    }

    @Test func staysWithinItsBytesEvictingTheLeastRecentlyUsed() {
        let cache = ResultCache(capacity: 3 * (1000 + 256 + 1))
        cache.store(image(1000), for: "a")
        cache.store(image(1000), for: "b")
        cache.store(image(1000), for: "c")
        #expect(cache.count == 3)
        _ = cache.image(for: "a")  // b is now the least recently used
        cache.store(image(1000), for: "d")
        #expect(cache.count == 3)
        #expect(cache.image(for: "b") == nil)
        #expect(cache.image(for: "a") != nil && cache.image(for: "c") != nil && cache.image(for: "d") != nil)
        #expect(cache.bytes <= cache.capacity)
    }

    @Test func refusesWhatCannotFitAndReplacesKeys() {
        let cache = ResultCache(capacity: 2000)
        cache.store(image(5000), for: "huge")
        #expect(cache.count == 0 && cache.bytes == 0)
        cache.store(image(100), for: "k")
        cache.store(image(200), for: "k")
        #expect(cache.count == 1)
        #expect(cache.image(for: "k")?.body.count == 200)
        #expect(cache.bytes == 200 + 1 + 256)
    }

    @Test func zeroCapacityKeepsNothing() {
        let cache = ResultCache(capacity: 0)
        cache.store(image(1), for: "a")
        #expect(cache.image(for: "a") == nil)
    }
}
