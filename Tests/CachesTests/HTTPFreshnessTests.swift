import Foundation
import ImagoCore
import Testing

@Suite struct HTTPDateTests {
    /// 1994-11-06 08:49:37 UTC, the example of RFC 9110.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06 Nov 1994 08:49:37 UTC",
    ])
    func parsesTheThreeFormats(text: String) {
        #expect(HTTPDate.parse(text) == example)
    }

    @Test(arguments: [
        "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 25:00:00 GMT", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 +0200", "Sun, 06 Nov 1994 08:49 GMT",
    ])
    func refusesOtherText(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func formatsIMFFixdateAndRoundTrips() {
        #expect(HTTPDate.string(from: example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.string(from: Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        for seconds in stride(from: -2_000_000_000, to: 4_000_000_000, by: 86_399_937) {
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(HTTPDate.parse(HTTPDate.string(from: date)) == date)
        }
    }

    @Test func readsTwoDigitYearsAsTheNearestCentury() {
        #expect(HTTPDate.parse("Friday, 01-Jan-27 00:00:00 GMT") == HTTPDate.parse("Fri, 01 Jan 2027 00:00:00 GMT"))
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }
}

@Suite struct CacheControlTests {
    @Test func parsesDirectives() {
        let control = CacheControl(parsing: "Public, MAX-AGE=3600, s-maxage=\"600\", must-revalidate, no-cache")
        #expect(control.maxAge == 3600)
        #expect(control.sharedMaxAge == 600)
        #expect(control.mustRevalidate)
        #expect(control.noCache)
        #expect(!control.noStore)
    }

    @Test func ignoresCommasInQuotesAndUnknownDirectives() {
        let control = CacheControl(parsing: "private=\"a, no-store\", max-age=5, foo=bar")
        #expect(!control.noStore)
        #expect(control.maxAge == 5)
    }

    @Test func readsBadMaxAgeAsStale() {
        #expect(CacheControl(parsing: "max-age=abc").maxAge == 0)
        #expect(CacheControl(parsing: "max-age=-5").maxAge == 0)
        #expect(CacheControl(parsing: "max-age=99999999999999").maxAge == Int(Int32.max))
    }
}

@Suite struct HTTPFreshnessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var nowText: String { HTTPDate.string(from: now) }

    @Test func maxAgeSetsExpiryMinusApparentAge() throws {
        let date = HTTPDate.string(from: now.addingTimeInterval(-100))
        let response = TransportMetadata(
            statusCode: 200, contentType: "image/png", etag: "\"v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT",
            cacheControl: "max-age=3600", date: date)
        let metadata = try #require(CacheMetadata(response: response, now: now))
        #expect(metadata.expires == now.addingTimeInterval(3500))
        #expect(metadata.etag == "\"v1\"")
        #expect(metadata.lastModified == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(metadata.contentType == "image/png")
        #expect(metadata.storedAt == now)
        #expect(metadata.isFresh(at: now.addingTimeInterval(3499)))
        #expect(!metadata.isFresh(at: now.addingTimeInterval(3500)))
    }

    @Test func maxAgeWinsOverExpires() throws {
        let response = TransportMetadata(
            cacheControl: "max-age=60", expires: HTTPDate.string(from: now.addingTimeInterval(9999)), date: nowText)
        #expect(try #require(CacheMetadata(response: response, now: now)).expires == now.addingTimeInterval(60))
    }

    @Test func expiresCountsFromDate() throws {
        // The server's clock runs 1000 s behind ours: the lifetime (Expires - Date) is what counts.
        let serverNow = now.addingTimeInterval(-1000)
        let response = TransportMetadata(
            statusCode: 200, expires: HTTPDate.string(from: serverNow.addingTimeInterval(600)),
            date: HTTPDate.string(from: serverNow))
        let metadata = try #require(CacheMetadata(response: response, now: now))
        // Apparent age is 1000 s (our clock is ahead), so the 600 s lifetime is used up.
        #expect(metadata.expires == now)
        let sameClock = TransportMetadata(expires: HTTPDate.string(from: now.addingTimeInterval(600)), date: nowText)
        #expect(try #require(CacheMetadata(response: sameClock, now: now)).expires == now.addingTimeInterval(600))
    }

    @Test func expiresWithoutDateIsTakenAsIs() throws {
        let response = TransportMetadata(expires: HTTPDate.string(from: now.addingTimeInterval(42)))
        #expect(try #require(CacheMetadata(response: response, now: now)).expires == now.addingTimeInterval(42))
    }

    @Test func invalidExpiresMeansExpired() throws {
        let metadata = try #require(CacheMetadata(response: TransportMetadata(expires: "0"), now: now))
        #expect(metadata.expires == now)
        #expect(!metadata.isFresh(at: now))
    }

    @Test func noCacheMakesItStaleAtOnce() throws {
        let response = TransportMetadata(etag: "x", cacheControl: "max-age=600, no-cache")
        let metadata = try #require(CacheMetadata(response: response, now: now))
        #expect(metadata.expires == now)
        #expect(!metadata.isFresh(at: now))
        #expect(metadata.canRevalidate)
    }

    @Test func noStoreAndUnsuitableStatusesAreNotStored() {
        #expect(CacheMetadata(response: TransportMetadata(statusCode: 200, cacheControl: "no-store"), now: now) == nil)
        #expect(CacheMetadata(response: TransportMetadata(cacheControl: "max-age=5, NO-STORE"), now: now) == nil)
        #expect(CacheMetadata(response: TransportMetadata(statusCode: 206), now: now) == nil)
        #expect(CacheMetadata(response: TransportMetadata(statusCode: 404), now: now) == nil)
        #expect(CacheMetadata(response: TransportMetadata(statusCode: 304), now: now) == nil)
    }

    @Test func noFreshnessInformationIsFreshForTheDefaultMaxAge() throws {
        let withValidator = try #require(CacheMetadata(response: TransportMetadata(etag: "e"), now: now))
        #expect(withValidator.expires == now.addingTimeInterval(604_800))
        let capped = try #require(
            CacheMetadata(response: TransportMetadata(etag: "e"), now: now, defaultMaxAge: 100))
        #expect(capped.expires == now.addingTimeInterval(100))
    }

    @Test func sharedMaxAgeIsIgnoredByThisPrivateCache() throws {
        let response = TransportMetadata(etag: "e", cacheControl: "s-maxage=600")
        #expect(try #require(CacheMetadata(response: response, now: now)).expires == now.addingTimeInterval(604_800))
    }

    @Test func revalidationCarriesTheValidators() throws {
        let url = try #require(URL(string: "https://example.com/a.png"))
        let request = TransportRequest(url: url, headers: ["Accept": "image/*"])
            .revalidating(CacheMetadata(etag: "\"v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(request.ifNoneMatch == "\"v1\"")
        #expect(request.ifModifiedSince == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(request.headers == ["Accept": "image/*"])
        #expect(TransportRequest(url: url).revalidating(CacheMetadata()).ifNoneMatch == nil)
    }

    @Test func notModifiedRefreshesExpiryAndValidators() throws {
        let stored = CacheMetadata(
            etag: "\"v1\"", lastModified: "old", expires: now.addingTimeInterval(-10),
            storedAt: now.addingTimeInterval(-70),
            contentType: "image/png")
        let later = now.addingTimeInterval(5)
        let withHeaders = stored.refreshed(
            by: TransportMetadata(statusCode: 304, etag: "\"v2\"", cacheControl: "max-age=120"), now: later)
        #expect(withHeaders.expires == later.addingTimeInterval(120))
        #expect(withHeaders.etag == "\"v2\"")
        #expect(withHeaders.lastModified == "old")
        #expect(withHeaders.contentType == "image/png")
        #expect(withHeaders.storedAt == later)

        let bare = stored.refreshed(by: TransportMetadata(statusCode: 304), now: later)
        #expect(bare.expires == later.addingTimeInterval(60), "the old 60 s lifetime applies again")
        #expect(bare.etag == "\"v1\"")

        let noStore = stored.refreshed(by: TransportMetadata(statusCode: 304, cacheControl: "no-store"), now: later)
        #expect(noStore.expires == later)
    }
}
