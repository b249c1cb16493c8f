import Foundation
import Testing

@testable import ImagoS3

/// `s3://` URLs: decoded, checked and encoded again as S3 wants, before any connection.
@Suite struct S3LocationTests {
    private func location(_ text: String) throws -> S3Location {
        try S3Location(url: try #require(URL(string: text)))
    }

    @Test func keysAreDecodedThenEncodedAsS3Expects() throws {
        let spaced = try location("s3://photos/a%20b%2Bc/%C3%A9t%C3%A9.jpg")
        #expect(spaced.bucket == "photos")
        #expect(spaced.key == "a b+c/été.jpg")
        #expect(spaced.encodedKey == "a%20b%2Bc/%C3%A9t%C3%A9.jpg")
        // A raw `+` is a plus, not a space (S3 keys are not form-encoded).
        #expect(try location("s3://photos/x+y.png").encodedKey == "x%2By.png")
        #expect(try location("s3://photos/dir/~file_-.png").encodedKey == "dir/~file_-.png")
    }

    @Test(arguments: [
        "s3://photos/a/../b.png", "s3://photos/..", "s3://photos/a/%2E%2E/b.png", "s3://photos/./b.png",
        "s3://photos/", "s3://photos", "s3://Photos/a.png", "s3://my_bucket/a.png", "s3://ab/a.png",
        "s3://a%2Fb/key.png", "s3://bucket./a.png", "s3://a..b/a.png", "s3://192.168.1.1/a.png", "s3:///a.png",
        "s3://photos/a.png?versionId=1", "s3://photos/a%0Ab.png", "s3://user:pw@photos/a.png",
    ])
    func badSourcesAreRefused(_ text: String) throws {
        let error = try #require(throws: ImagoError.self) { try location(text) }
        #expect(error.kind == .invalidSource)
        #expect(error.reason.hasPrefix("invalid s3 source"))
    }

    @Test func longKeysAreRefused() throws {
        let long = String(repeating: "k", count: 1025)
        #expect(throws: ImagoError.self) { try S3Location(bucket: "photos", key: long) }
        #expect(try S3Location(bucket: "photos", key: String(long.dropFirst())).key.count == 1024)
    }
}
