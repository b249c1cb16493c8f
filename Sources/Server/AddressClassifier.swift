#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of address an IP is, for the source policy: only `public` addresses are fetched by default.
public enum AddressClass: String, Sendable, Hashable {
    case `public`
    case loopback
    case `private`
    case linkLocal = "link-local"
    case uniqueLocal = "unique-local"
    case unspecified
    case multicast
    /// Broadcast, `240.0.0.0/4` and other ranges no origin lives in.
    case reserved
}

/// Classifies numeric IP addresses (IPv4 in every form resolvers accept, IPv6 with embedded IPv4), a pure function
/// the source policy applies to literal hosts and to every address a transport is about to connect to.
public enum AddressClassifier {
    /// The class of `host` when it is a numeric address (brackets and an IPv6 zone allowed), `nil` for a name.
    public static func classify(host: some StringProtocol) -> AddressClass? {
        var text = Substring(host)
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let v4 = ipv4Bytes(text) { return classify(ipv4: v4) }
        if let v6 = ipv6Bytes(text) { return classify(ipv6: v6) }
        return nil
    }

    /// Whether a connection to `ip` (numeric) may be made: only public addresses, unless `allowPrivate`. A text
    /// that is not a numeric address is refused.
    public static func allows(ip: some StringProtocol, allowPrivate: Bool) -> Bool {
        guard let kind = classify(host: ip) else { return false }
        return allowPrivate || kind == .public
    }

    /// The four bytes of an IPv4 address written as `inet_aton` (and so `getaddrinfo`) reads it: one to four
    /// dot-separated parts, each decimal, `0x` hex or `0` octal, the last filling the remaining bytes
    /// (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433` are all 127.0.0.1). `nil` for anything else.
    public static func ipv4Bytes(_ text: some StringProtocol) -> [UInt8]? {
        var parts: [UInt64] = []
        for part in Substring(text).split(separator: ".", omittingEmptySubsequences: false) {
            guard let value = number(part) else { return nil }
            parts.append(value)
        }
        guard (1...4).contains(parts.count) else { return nil }
        var address: UInt64 = 0
        for part in parts.dropLast() {
            guard part <= 255 else { return nil }
            address = address << 8 | part
        }
        let lastBits = 8 * (5 - parts.count)
        guard let last = parts.last, last < (1 << UInt64(lastBits)) else { return nil }
        address = address << UInt64(lastBits) | last
        return (0..<4).map { UInt8(truncatingIfNeeded: address >> UInt64(24 - 8 * $0)) }
    }

    /// The sixteen bytes of an IPv6 address (`inet_pton` syntax, a `%zone` suffix ignored), or `nil`.
    public static func ipv6Bytes(_ text: some StringProtocol) -> [UInt8]? {
        let address = String(text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)[0])
        guard address.contains(":") else { return nil }
        var storage = in6_addr()
        guard inet_pton(AF_INET6, address, &storage) == 1 else { return nil }
        return withUnsafeBytes(of: &storage) { Array($0) }
    }

    /// The class of an IPv4 address.
    public static func classify(ipv4 b: [UInt8]) -> AddressClass {
        precondition(b.count == 4)
        switch (b[0], b[1]) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127), (198, 18...19): return .private
        case (169, 254): return .linkLocal
        case (224...239, _): return .multicast
        case (240...255, _): return .reserved
        case (192, 0) where b[2] == 0: return .reserved
        default: return .public
        }
    }

    /// The class of an IPv6 address; IPv4-mapped, IPv4-compatible, NAT64 and 6to4 addresses take the class of the
    /// IPv4 address inside.
    public static func classify(ipv6 b: [UInt8]) -> AddressClass {
        precondition(b.count == 16)
        let prefix10 = b[0..<10].allSatisfy { $0 == 0 }
        if prefix10 && b[10] == 0 && b[11] == 0 {
            if b[12..<16].allSatisfy({ $0 == 0 }) { return .unspecified }
            if b[12..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
            return classify(ipv4: Array(b[12..<16]))  // ::a.b.c.d (IPv4-compatible, deprecated)
        }
        if prefix10 && b[10] == 0xff && b[11] == 0xff { return classify(ipv4: Array(b[12..<16])) }  // ::ffff:a.b.c.d
        if b[0..<12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return classify(ipv4: Array(b[12..<16])) }
        if b[0] == 0x20 && b[1] == 0x02 { return classify(ipv4: Array(b[2..<6])) }  // 6to4
        switch b[0] {
        case 0xff: return .multicast
        case 0xfc, 0xfd: return .uniqueLocal
        case 0xfe where b[1] & 0xc0 == 0x80: return .linkLocal
        case 0xfe where b[1] & 0xc0 == 0xc0: return .private  // site-local (deprecated)
        default: break
        }
        if b[0] == 0x01 && b[1...7].allSatisfy({ $0 == 0 }) { return .reserved }  // 100::/64, discard
        return .public
    }

    /// One `inet_aton` part: decimal, `0x…` hex (at least one digit) or `0…` octal.
    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part.utf8[...]
        var radix: UInt64 = 10
        if digits.starts(with: "0x".utf8) || digits.starts(with: "0X".utf8) {
            radix = 16
            digits = digits.dropFirst(2)
            guard !digits.isEmpty else { return nil }
        } else if digits.first == UInt8(ascii: "0") {
            radix = 8
        }
        var value: UInt64 = 0
        for digit in digits {
            let d: UInt64
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt64(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt64(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
            guard d < radix else { return nil }
            value = value * radix + d
            guard value <= UInt64(UInt32.max) else { return nil }
        }
        return value
    }
}
