import ImagoCore

/// The header of a `P6` or `P7` file: size, samples per pixel, and where the pixels start.
struct PAMHeader {
    var width = 0
    var height = 0
    var depth = 3
    var maxValue = 255
    var dataOffset = 0

    /// Scales a sample to 0…255.
    func scale(_ sample: UInt8) -> UInt8 {
        maxValue == 255 ? sample : UInt8(min(255, Int(sample) * 255 / maxValue))
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    static func parse(_ bytes: [UInt8]) throws -> PAMHeader {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else { throw failure("not a PPM or PAM file") }
        var reader = TokenReader(bytes: bytes, offset: 2)
        var header: PAMHeader
        switch bytes[1] {
        case UInt8(ascii: "6"): header = try parsePPM(&reader)
        case UInt8(ascii: "7"): header = try parsePAM(&reader)
        default: throw failure("unsupported Netpbm type P\(Character(Unicode.Scalar(bytes[1])))")
        }
        guard header.width > 0, header.height > 0 else { throw failure("empty size \(header.width)x\(header.height)") }
        guard (1...255).contains(header.maxValue) else { throw failure("unsupported MAXVAL \(header.maxValue)") }
        guard (1...4).contains(header.depth) else { throw failure("unsupported DEPTH \(header.depth)") }
        return header
    }

    private static func parsePPM(_ reader: inout TokenReader) throws -> PAMHeader {
        var header = PAMHeader()
        header.width = try reader.number()
        header.height = try reader.number()
        header.maxValue = try reader.number()
        // Exactly one whitespace byte separates the header from the pixels.
        guard reader.offset < reader.bytes.count, isWhitespace(reader.bytes[reader.offset]) else {
            throw failure("no pixels after the header")
        }
        header.dataOffset = reader.offset + 1
        return header
    }

    private static func parsePAM(_ reader: inout TokenReader) throws -> PAMHeader {
        var header = PAMHeader()
        var seen: Set<String> = []
        while true {
            let key = try reader.token()
            if key == "ENDHDR" { break }
            seen.insert(key)
            switch key {
            case "WIDTH": header.width = try reader.number()
            case "HEIGHT": header.height = try reader.number()
            case "DEPTH": header.depth = try reader.number()
            case "MAXVAL": header.maxValue = try reader.number()
            case "TUPLTYPE": _ = try reader.token()
            default: throw failure("unknown header line \(key.prefix(16))")
            }
        }
        guard seen.isSuperset(of: ["WIDTH", "HEIGHT", "DEPTH", "MAXVAL"]) else {
            throw failure("incomplete PAM header")
        }
        // ENDHDR ends with one newline.
        guard reader.offset < reader.bytes.count else { throw failure("no pixels after the header") }
        header.dataOffset = reader.offset + 1
        return header
    }

    static func failure(_ reason: String) -> ImagoError {
        ImagoError(.decodingFailed(format: PAMCodec.pam), "invalid pam: \(reason)")
    }
}

/// Reads whitespace-separated ASCII tokens, skipping `#` comments.
private struct TokenReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func token() throws -> String {
        while offset < bytes.count {
            if PAMHeader.isWhitespace(bytes[offset]) {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "#") {
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
            } else {
                break
            }
        }
        let start = offset
        while offset < bytes.count, !PAMHeader.isWhitespace(bytes[offset]), offset - start < 32 { offset += 1 }
        guard offset > start, offset < bytes.count else { throw PAMHeader.failure("truncated header") }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// A decimal number; huge values are refused here, sizes are checked against the limits by the caller.
    mutating func number() throws -> Int {
        let text = try token()
        guard text.count <= 9, let value = Int(text), value >= 0 else {
            throw PAMHeader.failure("bad number \(text.prefix(16))")
        }
        return value
    }
}
