import Foundation
import ImagoCore

/// Base64 decoding as browsers do it for `data:` URIs (WHATWG "forgiving base64"): ASCII whitespace is skipped and
/// `=` padding may be left out, but any other stray character, or a length no encoder produces, is refused.
enum ForgivingBase64 {
    static func decode(
        _ bytes: Data, maxBytes: Int, tooLarge: (Int) -> ImagoError, malformed: (String) -> ImagoError
    ) throws -> Data {
        var symbols = bytes.contains(where: isASCIIWhitespace) ? bytes.filter { !isASCIIWhitespace($0) } : bytes
        if symbols.count % 4 == 0 {
            for _ in 0..<2 where symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        }
        guard symbols.count % 4 != 1 else {
            throw malformed("invalid base64: \(symbols.count) symbols is not a length an encoder produces")
        }
        let count = symbols.count / 4 * 3 + max(0, symbols.count % 4 - 1)
        if count > maxBytes { throw tooLarge(count) }

        // Foundation's strict decoder is the fast path; it needs the padding back.
        var padded = symbols
        padded.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - symbols.count % 4) % 4))
        if let data = Data(base64Encoded: padded), data.count == count { return data }
        return try decodeSlowly(symbols, count: count, malformed: malformed)
    }

    /// Decodes symbol by symbol: names the first stray character, and accepts the non-zero trailing bits that a
    /// strict decoder may refuse but browsers do not.
    private static func decodeSlowly(_ symbols: Data, count: Int, malformed: (String) -> ImagoError) throws -> Data {
        var data = Data(capacity: count)
        var accumulator: UInt32 = 0
        var bits = 0
        for (index, symbol) in symbols.enumerated() {
            guard let value = value(of: symbol) else {
                let character = Character(Unicode.Scalar(symbol))
                throw malformed("invalid base64: unexpected \(character.debugDescription) at position \(index)")
            }
            accumulator = (accumulator << 6 | UInt32(value)) & 0xFF_FFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                data.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return data
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
