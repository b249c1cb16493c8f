import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one normal form of a source URL: what a policy matches and a transport then fetches, so that no spelling
/// of a path reaches outside the prefix it was allowed by.
public enum SourceURL {
    /// `url` with its path's dot segments removed (RFC 3986 §5.2.4), percent-encoded dots (`%2e`) counted as dots.
    /// For `file:` URLs the path is percent-decoded and its symlinks resolved (the longest part that exists), so a
    /// link inside an allowed folder that points outside it is seen where it points. A path whose percent-encoded
    /// slashes or backslashes would make dot segments once an origin decodes them (`..%2F`) throws `invalidSource`.
    public static func normalized(_ url: URL) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ImagoError(.invalidSource, "the source URL cannot be parsed", source: url.absoluteString)
        }
        if components.scheme?.lowercased() == "file" {
            guard let path = components.percentEncodedPath.removingPercentEncoding, !path.contains("\0") else {
                throw ImagoError(.invalidSource, "the file path has bad percent-encoding", source: url.absoluteString)
            }
            return normalizedFile(path: path)
        }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/") else { return url }
        var ambiguous = false
        let normalised = removingDotSegments(path) { segment in
            let decoded = segment.removingPercentEncoding ?? segment
            if decoded.contains(where: { $0 == "/" || $0 == "\\" }),
                decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains(where: { $0 == "." || $0 == ".." })
            {
                ambiguous = true
            }
            return decoded
        }
        if ambiguous {
            throw ImagoError(
                .invalidSource, "the path hides a dot segment behind an encoded slash", source: url.absoluteString)
        }
        guard normalised != path else { return url }
        components.percentEncodedPath = normalised
        guard let result = components.url else {
            throw ImagoError(.invalidSource, "the source URL cannot be rebuilt", source: url.absoluteString)
        }
        return result
    }

    /// The `file:` URL of the decoded absolute `path`, its dot segments removed and its symlinks resolved (a trailing
    /// `/` kept): the normal form of file sources and of `file:` prefixes alike.
    public static func normalizedFile(path: String) -> URL {
        let resolved = resolvingSymlinks(removingDotSegments(path.isEmpty ? "/" : path) { $0 })
        return URL(fileURLWithPath: resolved, isDirectory: resolved.hasSuffix("/") && resolved != "/")
    }

    /// RFC 3986's remove_dot_segments over an absolute path; `decode` turns a segment into the form compared with
    /// `.` and `..` (the segments kept are kept as written).
    static func removingDotSegments(_ path: String, decode: (String) -> String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var output: [Substring] = []
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            switch decode(String(part)) {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(part)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// `path` with every symlink of its longest existing prefix resolved (`realpath`), the rest appended.
    static func resolvingSymlinks(_ path: String) -> String {
        var head = path
        var tail: [Substring] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                var result = String(cString: real)
                for part in tail.reversed() {
                    if !result.hasSuffix("/") { result += "/" }
                    result += part
                }
                if path.hasSuffix("/") && !result.hasSuffix("/") { result += "/" }
                return result
            }
            guard let slash = head.lastIndex(of: "/"), head != "/" else { return path }
            let part = head[head.index(after: slash)...]
            if !part.isEmpty { tail.append(part) }
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
    }
}
