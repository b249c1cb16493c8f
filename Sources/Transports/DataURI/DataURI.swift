import Foundation
import ImagoCore

/// A parsed `data:` URI (RFC 2397): `data:[<media type>][;<attribute>=<value>]*[;base64],<data>`.
///
/// Whitespace inside a base64 payload is ignored and missing `=` padding is accepted, as browsers do (the WHATWG
/// "forgiving base64"). Everything else malformed is refused with a reason.
struct DataURI {
    /// The media type with its parameters, `text/plain;charset=US-ASCII` when the URI names none.
    let contentType: String
    /// The decoded payload.
    let data: Data

    /// Parses and decodes `text` (a whole `data:` URI); throws `tooLarge` past `maxBytes`, checked before decoding.
    init(_ text: String, maxBytes: Int) throws {
        let source = text
        func malformed(_ reason: String) -> ImagoError {
            ImagoError(.invalidSource, "malformed data: URI: \(reason)", source: source)
        }
        guard text.prefix(5).lowercased() == "data:" else {
            throw ImagoError(.unsupportedScheme, "not a data: URI", source: source)
        }
        var body = text.dropFirst(5)
        if let fragment = body.firstIndex(of: "#") { body = body[..<fragment] }
        guard let comma = body.firstIndex(of: ",") else {
            throw malformed("no \",\" separates the media type from the data")
        }
        let header = try Self.parseHeader(body[..<comma], malformed: malformed)
        contentType = header.contentType
        let payload = body[body.index(after: comma)...]

        func tooLarge(_ count: Int) -> ImagoError {
            ImagoError(.tooLarge, "too large: \(count) bytes exceeds the limit of \(maxBytes) bytes", source: source)
        }
        // Each decoded byte takes at least one character (base64: 4 for 3), so this bound is known before decoding.
        let leastBytes = header.isBase64 ? 0 : payload.utf8.count / 3
        if leastBytes > maxBytes { throw tooLarge(leastBytes) }
        let bytes: Data
        if payload.utf8.contains(UInt8(ascii: "%")) {
            guard let decoded = Self.percentDecoded(payload) else {
                throw malformed("invalid percent-encoding in the data")
            }
            bytes = Data(decoded)
        } else {
            bytes = Data(payload.utf8)
        }
        if header.isBase64 {
            data = try ForgivingBase64.decode(bytes, maxBytes: maxBytes, tooLarge: tooLarge, malformed: malformed)
        } else {
            if bytes.count > maxBytes { throw tooLarge(bytes.count) }
            data = bytes
        }
    }

    private struct Header {
        var contentType: String
        var isBase64: Bool
    }

    private static func parseHeader(_ header: Substring, malformed: (String) -> ImagoError) throws -> Header {
        guard let decoded = percentDecoded(header), let text = String(bytes: decoded, encoding: .utf8) else {
            throw malformed("invalid percent-encoding in the media type")
        }
        var parts = text.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var isBase64 = false
        if parts.count > 1, parts.last?.lowercased() == "base64" {
            isBase64 = true
            parts.removeLast()
        }
        let mediaType = parts.removeFirst().lowercased()
        var contentType = mediaType.isEmpty ? "text/plain" : mediaType
        if !mediaType.isEmpty {
            let pieces = mediaType.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count == 2, pieces.allSatisfy({ isToken($0) }) else {
                throw malformed("invalid media type \"\(mediaType)\" (expected type/subtype)")
            }
        }
        var hasCharset = false
        for parameter in parts {
            guard let equals = parameter.firstIndex(of: "="), isToken(parameter[..<equals]),
                !parameter[parameter.index(after: equals)...].isEmpty
            else {
                throw malformed("invalid parameter \"\(parameter)\" (expected attribute=value)")
            }
            let attribute = parameter[..<equals].lowercased()
            hasCharset = hasCharset || attribute == "charset"
            contentType += ";\(attribute)=\(parameter[parameter.index(after: equals)...])"
        }
        if mediaType.isEmpty && !hasCharset { contentType += ";charset=US-ASCII" }
        return Header(contentType: contentType, isBase64: isBase64)
    }

    /// An RFC 2045 token: printable ASCII without separators.
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value < 0x7F && !"()<>@,;:\\\"/[]?=".unicodeScalars.contains($0)
            }
    }

    /// The bytes of `text` with `%XX` escapes decoded; `nil` when an escape is not two hex digits.
    static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
