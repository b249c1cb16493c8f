import Foundation

/// `/{signature}/{options}/{source}`, split as sent: `source` is `plain/` and the percent-encoded URL, or the URL
/// in base64url (unpadded) as one segment.
public struct ImagePath: Sendable, Hashable {
    /// The signature segment.
    public var signature: Substring
    /// What the signature covers: the path from the `/` after the signature onwards, as sent.
    public var signedPart: Substring
    /// The options segment.
    public var options: Substring
    /// The decoded source URL.
    public var source: String
    /// `source` parsed.
    public var url: URL

    /// Splits and decodes `path`; a malformed one throws `RequestError` (`malformedPath`) saying what is wrong.
    public init(parsing path: Substring) throws {
        guard path.first == "/" else { throw RequestError(.malformedPath, "the path must start with /") }
        let afterSlash = path.dropFirst()
        guard let signatureEnd = afterSlash.firstIndex(of: "/") else {
            throw RequestError(.malformedPath, "expected /SIGNATURE/OPTIONS/SOURCE")
        }
        signature = afterSlash[..<signatureEnd]
        signedPart = path[signatureEnd...]
        let afterSignature = signedPart.dropFirst()
        // An empty signature is parsed like any other, so that it is refused as one (403), not as a bad path.
        guard let optionsEnd = afterSignature.firstIndex(of: "/") else {
            throw RequestError(.malformedPath, "expected /SIGNATURE/OPTIONS/SOURCE")
        }
        options = afterSignature[..<optionsEnd]
        let encoded = afterSignature[afterSignature.index(after: optionsEnd)...]
        source = try Self.decodeSource(encoded)
        url = try Self.sourceURL(source)
    }

    /// `source` as an absolute URL; control characters or a relative URL are a 400 (the URL dialects share it).
    static func sourceURL(_ source: String) throws -> URL {
        if source.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw RequestError(.malformedPath, "the source URL contains control characters (CR, LF, NUL, …)")
        }
        guard let url = URL(string: source), let scheme = url.scheme, !scheme.isEmpty else {
            throw RequestError(.malformedPath, "the source is not an absolute URL")
        }
        return url
    }

    /// `plain/` and a percent-encoded URL, or one base64url segment, decoded.
    static func decodeSource(_ encoded: Substring) throws -> String {
        if encoded.hasPrefix("plain/") {
            let rest = encoded.dropFirst("plain/".count)
            guard !rest.isEmpty else { throw RequestError(.malformedPath, "empty plain source") }
            guard let decoded = String(rest).removingPercentEncoding else {
                throw RequestError(.malformedPath, "the plain source has bad percent-encoding")
            }
            return decoded
        }
        guard !encoded.isEmpty else { throw RequestError(.malformedPath, "missing source") }
        guard !encoded.contains("/") else {
            throw RequestError(.malformedPath, "an encoded source is one base64url segment (or use plain/…)")
        }
        guard let bytes = Base64URL.decode(encoded) else {
            throw RequestError(.malformedPath, "the source is not valid base64url (unpadded)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RequestError(.malformedPath, "the decoded source is not UTF-8")
        }
        return text
    }
}
