import Foundation
import ImagoCore

/// Checks that a URL and its headers are safe to send before anything leaves the machine.
package enum HTTPRequestValidation {
    /// The URL, if it is `http(s)` with a host and no control characters (raw or percent-encoded).
    package static func validatedURL(_ url: URL) throws -> URL {
        let text = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ImagoError(
                .unsupportedScheme,
                "unsupported scheme \"\(url.scheme ?? "")\": the HTTP transport serves http and https",
                source: text)
        }
        // Foundation percent-encodes a raw CR/LF, so decoded forms are checked too: no image URL needs them.
        if containsControlCharacters(text) || containsControlCharacters(text.removingPercentEncoding ?? text) {
            throw ImagoError(.invalidSource, "invalid source: the URL contains control characters", source: text)
        }
        guard let host = url.host, !host.isEmpty else {
            throw ImagoError(.invalidSource, "invalid source: the URL has no host", source: text)
        }
        return url
    }

    /// Whether a redirect from `a` to `b` stays within one origin (scheme, host and port, the default port
    /// filled in), the only case where credentials may follow it: another port is another server (curl's
    /// CVE-2022-27776), and https to http would send them in the clear.
    package static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return origin(a) == origin(b)
    }

    /// Refuses header names that are not tokens and values that could smuggle another header.
    package static func validateHeader(name: String, value: String, source: String) throws {
        let tokenSymbols = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        let validName =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || tokenSymbols.contains($0))
            }
        guard validName else {
            throw ImagoError(.invalidSource, "invalid header name \(name.debugDescription)", source: source)
        }
        guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            throw ImagoError(
                .invalidSource, "invalid value for header \(name): it contains control characters", source: source)
        }
    }

    private static func containsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
