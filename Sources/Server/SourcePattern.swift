import Foundation
import Imago

/// One `allowedSources` entry: a URL prefix whose host may use `*` for one whole label
/// (`https://*.example.com/`). The host (and port) is matched whole, case-insensitively, so
/// `https://example.com` does not admit `https://example.com.evil.net/`; the rest is a plain prefix (for `s3://`
/// patterns, a prefix of the decoded object key).
struct SourcePattern: Sendable, Hashable {
    private let scheme: String
    /// Host labels (the last may carry `:port`); `nil` for schemes without an authority (`data:`).
    private let labels: [String]?
    private let pathPrefix: String

    /// `nil` when `prefix` is not `scheme:` or `scheme://authority…`, or uses `*` other than as a host label.
    init?(_ prefix: String) {
        var prefix = prefix
        if prefix.lowercased().hasPrefix("file://"), let path = prefix.dropFirst(7).removingPercentEncoding,
            path.hasPrefix("/"), !path.contains("*")
        {
            prefix = SourceURL.normalizedFile(path: path).absoluteString
        }
        guard let colon = prefix.firstIndex(of: ":"), colon > prefix.startIndex else { return nil }
        scheme = prefix[..<colon].lowercased()
        guard scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        let rest = prefix[prefix.index(after: colon)...]
        guard rest.hasPrefix("//") else {
            guard !rest.contains("*") else { return nil }
            labels = nil
            pathPrefix = String(rest)
            return
        }
        let (authority, path) = Self.splitAuthority(rest.dropFirst(2))
        let hostLabels = authority.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !hostLabels.contains(where: { $0.contains("*") && $0 != "*" }), !path.contains("*") else { return nil }
        guard scheme == "file" || !authority.isEmpty else { return nil }
        labels = hostLabels
        // An object's key is matched decoded (`s3://bucket/my%20photos/` admits the key `my photos/a.png`).
        if scheme == "s3" {
            guard let key = path.removingPercentEncoding, S3Location.bucketProblem(String(authority)) == nil,
                !key.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
            else { return nil }
            pathPrefix = key
        } else {
            pathPrefix = String(path)
        }
    }

    /// Whether `source` (the decoded source URL) starts with this prefix.
    func matches(_ source: String) -> Bool {
        guard let colon = source.firstIndex(of: ":"), source[..<colon].lowercased() == scheme else { return false }
        let rest = source[source.index(after: colon)...]
        guard let labels else { return rest.hasPrefix(pathPrefix) }
        guard rest.hasPrefix("//") else { return false }
        let (authority, path) = Self.splitAuthority(rest.dropFirst(2))
        let sourceLabels = authority.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard sourceLabels.count == labels.count else { return false }
        for (pattern, label) in zip(labels, sourceLabels) {
            if pattern == "*" {
                guard !label.isEmpty, label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
                else { return false }
            } else if pattern != label {
                return false
            }
        }
        return path.hasPrefix(pathPrefix)
    }

    /// The authority (up to the first `/`, `?` or `#`) and what follows.
    private static func splitAuthority(_ text: Substring) -> (Substring, Substring) {
        let end = text.firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        return (text[..<end], text[end...])
    }
}
