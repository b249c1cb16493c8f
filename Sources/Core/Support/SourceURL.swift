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
            // `file://localhost/x` is `file:///x`; any other host is not this machine's file (RFC 8089).
            if let host = components.host, !host.isEmpty, host.lowercased() != "localhost" {
                throw ImagoError(
                    .invalidSource, "a file: source names no host (file:///path, or file://localhost/path)",
                    source: url.absoluteString)
            }
            guard let path = components.percentEncodedPath.removingPercentEncoding, !path.contains("\0") else {
                throw ImagoError(.invalidSource, "the file path has bad percent-encoding", source: url.absoluteString)
            }
            return normalizedFile(path: path)
        }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/") else { return url }
        var ambiguous: String?
        let normalised = removingDotSegments(path) { segment in
            let decoded = segment.removingPercentEncoding ?? segment
            if decoded.contains(where: { $0 == "/" || $0 == "\\" }),
                decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains(where: { $0 == "." || $0 == ".." })
            {
                ambiguous = "an encoded slash"
            }
            // Tomcat, Jetty and Spring read `..;x` (a path parameter) as `..`: an origin could climb out with it.
            if let parameter = decoded.firstIndex(of: ";"), [".", ".."].contains(decoded[..<parameter]) {
                ambiguous = "a path parameter (;)"
            }
            return decoded
        }
        if let ambiguous {
            throw ImagoError(
                .invalidSource, "the path hides a dot segment behind \(ambiguous)", source: url.absoluteString)
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

    /// `path` with every symlink of its longest existing prefix resolved (`realpath`), the rest appended. A link
    /// whose target does not exist is followed too (read with `readlink`), so it is seen where it points whether
    /// or not that exists; `hops` bounds the links followed, as the system's own limit does.
    static func resolvingSymlinks(_ path: String, hops: Int = 40) -> String {
        var head = path
        var tail: [Substring] = []
        func appendingTail(_ base: String) -> String {
            var result = base
            for part in tail.reversed() {
                if !result.hasSuffix("/") { result += "/" }
                result += part
            }
            if path.hasSuffix("/") && !result.hasSuffix("/") { result += "/" }
            return result
        }
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                return appendingTail(String(cString: real))
            }
            if hops > 0, let target = danglingLinkTarget(head) {
                let directory = head[..<(head.lastIndex(of: "/") ?? head.startIndex)]
                let absolute = target.hasPrefix("/") ? target : "\(directory)/\(target)"
                return resolvingSymlinks(appendingTail(removingDotSegments(absolute) { $0 }), hops: hops - 1)
            }
            guard let slash = head.lastIndex(of: "/"), head != "/" else { return path }
            let part = head[head.index(after: slash)...]
            if !part.isEmpty { tail.append(part) }
            head = slash == head.startIndex ? "/" : String(head[..<slash])
        }
    }

    /// The target of `path` when it is a symbolic link (which `realpath` could not follow: its target is missing).
    private static func danglingLinkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
