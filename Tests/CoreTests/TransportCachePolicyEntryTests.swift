import Foundation
import Testing

@testable import ImagoCore

/// What a fetch leaves in the data cache (`TransportCachePolicy.entry(after:…)`), the rule the loader and the
/// fleet's source transport share.
@Suite struct TransportCachePolicyEntryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = HTTPCachePolicy()

    @Test func aResponseLeavesItsBytesWithTheMetadataItAllows() throws {
        let ok = TransportMetadata(statusCode: 200, etag: "\"a\"", cacheControl: "max-age=60")
        let entry = try #require(
            policy.entry(after: ok, data: Data([1, 2]), stale: nil, defaultMaxAge: 3600, now: now))
        #expect(entry.data == Data([1, 2]))
        #expect(entry.metadata.expires == now.addingTimeInterval(60))
        #expect(entry.metadata.etag == "\"a\"")
        let noStore = TransportMetadata(statusCode: 200, cacheControl: "no-store")
        #expect(policy.entry(after: noStore, data: Data([1]), stale: nil, defaultMaxAge: 3600, now: now) == nil)
    }

    @Test func aNotModifiedLeavesTheStaleBytesRefreshedOrNothing() throws {
        let stale = DataCacheEntry(
            data: Data([7]), metadata: CacheMetadata(etag: "\"old\"", expires: now.addingTimeInterval(-10)),
            layer: "disk")
        let notModified = TransportMetadata(statusCode: 304, cacheControl: "max-age=120")
        let entry = try #require(
            policy.entry(after: notModified, data: Data(), stale: stale, defaultMaxAge: 3600, now: now))
        #expect(entry.data == Data([7]))
        #expect(entry.metadata.etag == "\"old\"")
        #expect(entry.metadata.expires == now.addingTimeInterval(120))
        #expect(entry.metadata.storedAt == now)
        #expect(entry.layer == nil, "a new entry, not the copy that was read")
        #expect(policy.entry(after: notModified, data: Data(), stale: nil, defaultMaxAge: 3600, now: now) == nil)
    }
}
