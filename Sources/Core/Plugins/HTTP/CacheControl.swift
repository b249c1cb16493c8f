import Foundation

/// The directives of a `Cache-Control` header that matter to a private cache of images.
public struct CacheControl: Sendable, Hashable {
    /// `max-age`, in seconds; an unparsable value reads as 0 (stale), as RFC 9111 asks.
    public var maxAge: Int?
    /// `s-maxage`, in seconds (for shared caches; parsed, not used for freshness here).
    public var sharedMaxAge: Int?
    /// `no-store`: the response must not be stored.
    public var noStore = false
    /// `no-cache`: the response must be revalidated before every use.
    public var noCache = false
    /// `must-revalidate`: once stale, the response must not be served without revalidating (this cache never
    /// serves stale bytes anyway).
    public var mustRevalidate = false

    /// Parses a header such as `public, max-age=3600, must-revalidate`; unknown directives are ignored.
    public init(parsing header: String) {
        for directive in Self.directives(of: header) {
            switch directive.name {
            case "max-age": maxAge = Self.seconds(directive.value)
            case "s-maxage": sharedMaxAge = Self.seconds(directive.value)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            default: break
            }
        }
    }

    private static func seconds(_ value: String?) -> Int {
        guard let value, !value.isEmpty, value.allSatisfy(\.isASCIIDigitCharacter) else { return 0 }
        // Absurdly large values are clamped (RFC 9111 suggests 2^31 seconds).
        return Int(value.prefix(10)).map { min($0, Int(Int32.max)) } ?? 0
    }

    /// Splits on commas outside quoted strings; names are lowercased, quoted values unquoted.
    private static func directives(of header: String) -> [(name: String, value: String?)] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        for character in header {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part in
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { return nil }
            var value = pieces.count > 1 ? pieces[1] : nil
            if let text = value, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                value = String(text.dropFirst().dropLast())
            }
            return (name, value)
        }
    }
}
