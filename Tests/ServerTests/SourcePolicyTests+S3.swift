import Foundation
import Imago
import Testing

@testable import ImagoServer

/// `s3://bucket/prefix/` entries of the allow-list, matched on the decoded object key.
@Suite struct SourcePolicyS3Tests {
    private func check(_ source: String, allowed: [String]) throws -> URL {
        var settings = ServeSettings()
        settings.allowedSources = allowed
        return try SourcePolicy(settings: settings).check(try #require(URL(string: source)))
    }

    private func status(_ source: String, allowed: [String]) -> Int {
        do {
            _ = try check(source, allowed: allowed)
            return 200
        } catch let error as ImagoError {
            return ServeFailure(error).status
        } catch {
            return 0
        }
    }

    @Test func objectsAreAllowedOnlyUnderANamedPrefix() throws {
        let allowed = ["s3://originals/photos/", "s3://shared.assets/my%20logos/"]
        #expect(status("s3://originals/photos/a.jpg", allowed: allowed) == 200)
        #expect(status("s3://originals/photos/sub/dir/a.jpg", allowed: allowed) == 200)
        #expect(status("s3://originals/private/a.jpg", allowed: allowed) == 403)
        #expect(status("s3://other-bucket/photos/a.jpg", allowed: allowed) == 403)
        #expect(status("s3://originals.evil/photos/a.jpg", allowed: allowed) == 403)
        // The key is matched decoded: an encoded prefix admits the decoded key, and the reverse.
        #expect(status("s3://shared.assets/my%20logos/x.png", allowed: allowed) == 200)
        #expect(status("s3://originals/%70hotos/a.jpg", allowed: allowed) == 200)
        // No http(s) source is admitted by an s3 prefix, and no s3 source without one.
        #expect(status("https://originals/photos/a.jpg", allowed: allowed) == 403)
        #expect(status("s3://originals/photos/a.jpg", allowed: []) == 403)
        #expect(status("s3://originals/photos/a.jpg", allowed: ["https://example.com/"]) == 403)
    }

    @Test func dotSegmentsAndBadNamesAreRefusedNotNormalised() {
        let allowed = ["s3://originals/photos/"]
        #expect(status("s3://originals/photos/../private/a.jpg", allowed: allowed) == 400)
        #expect(status("s3://originals/photos/%2E%2E/private/a.jpg", allowed: allowed) == 400)
        #expect(status("s3://originals/", allowed: allowed) == 400)
        #expect(status("s3://Originals/photos/a.jpg", allowed: allowed) == 400)
    }

    @Test func theCheckedSourceHasItsKeyEncodedAsS3Expects() throws {
        let url = try check("s3://originals/photos/a%20b+c/%C3%A9.jpg", allowed: ["s3://originals/photos/"])
        #expect(url.absoluteString == "s3://originals/photos/a%20b%2Bc/%C3%A9.jpg")
    }

    @Test func s3PatternsAreValidated() {
        #expect(SourcePattern("s3://originals/photos/") != nil)
        #expect(SourcePattern("s3://originals") != nil)
        #expect(SourcePattern("s3://Bad_Bucket/") == nil)
        #expect(SourcePattern("s3://*/photos/") == nil)
        #expect(SourcePattern("s3://originals/photos/../") == nil)
    }
}
