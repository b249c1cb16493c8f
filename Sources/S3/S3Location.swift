import Foundation
import ImagoCore

/// A bucket and an object key, checked before any connection: the key is percent-decoded from the `s3://` URL
/// and encoded again as S3 expects it in a request path.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's name (3–63 lowercase letters, digits, dots and hyphens).
    public let bucket: String
    /// The object's key, decoded (`photos/a b+c/é.jpg`).
    public let key: String

    /// The location an `s3://BUCKET/KEY` URL names. Throws `invalidSource` for another scheme, a query or a
    /// fragment, an invalid bucket name (uppercase, `/`, `%`, `_`…), an empty key, a `.` or `..` segment, control
    /// characters, or a key over 1024 bytes.
    public init(url: URL) throws(ImagoError) {
        let text = url.absoluteString
        guard url.scheme?.lowercased() == "s3", let rest = text.range(of: "://").map({ text[$0.upperBound...] })
        else { throw Self.invalid("not an s3:// URL", source: text) }
        guard !rest.contains("?"), !rest.contains("#") else {
            throw Self.invalid("an s3:// source takes no query or fragment (encode ? and # in keys)", source: text)
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let encodedKey = rest[slash...].dropFirst()
        guard let key = String(encodedKey).removingPercentEncoding else {
            throw Self.invalid("the key's percent-encoding is not valid UTF-8", source: text)
        }
        try self.init(bucket: String(rest[..<slash]), key: key, source: text)
    }

    /// A location from a bucket name and a decoded key, checked as for a URL.
    public init(bucket: String, key: String) throws(ImagoError) {
        try self.init(bucket: bucket, key: key, source: "s3://\(bucket)/\(key)")
    }

    private init(bucket: String, key: String, source: String) throws(ImagoError) {
        if let problem = Self.bucketProblem(bucket) {
            throw Self.invalid("invalid bucket name \(bucket.debugDescription): \(problem)", source: source)
        }
        if let problem = Self.keyProblem(key) { throw Self.invalid(problem, source: source) }
        self.bucket = bucket
        self.key = key
    }

    /// `s3://bucket/key`, the key encoded.
    public var description: String { "s3://\(bucket)/\(encodedKey)" }

    /// The key as a request path spells it: every byte but unreserved characters and `/` percent-encoded
    /// (a space is `%20`, `+` is `%2B`, `é` is `%C3%A9`).
    public var encodedKey: String { Self.encode(key) }

    /// `text` percent-encoded as S3 (and SigV4's canonical request) expects, `/` kept.
    static func encode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// Why `name` is not a valid bucket name (S3's rules for new buckets), or nil.
    package static func bucketProblem(_ name: String) -> String? {
        guard (3...63).contains(name.utf8.count) else { return "it must be 3 to 63 characters long" }
        let allowed = name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
        guard allowed else { return "only lowercase letters, digits, dots and hyphens are allowed" }
        guard let first = name.first, let last = name.last, first.isLetter || first.isNumber,
            last.isLetter || last.isNumber
        else { return "it must begin and end with a letter or digit" }
        guard !name.contains("..") else { return "it must not contain two dots in a row" }
        let parts = name.split(separator: ".")
        if parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) { return "it must not look like an IP address" }
        return nil
    }

    /// Why `key` is refused, or nil.
    package static func keyProblem(_ key: String) -> String? {
        guard !key.isEmpty else { return "empty object key" }
        guard key.utf8.count <= 1024 else { return "the object key is longer than 1024 bytes" }
        guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "the object key contains control characters"
        }
        guard !key.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." })
        else { return "the object key has a . or .. segment" }
        return nil
    }

    private static func invalid(_ reason: String, source: String) -> ImagoError {
        ImagoError(.invalidSource, "invalid s3 source: \(reason)", source: source)
    }
}
