import Foundation
import ImagoCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The source policy's address rule for a transport that cannot see the addresses it connects to (URLSession):
/// the host is resolved here and every address it resolves to must be allowed. A resolver could answer
/// differently a moment later, so where addresses matter the libcurl transport, which checks the very address it
/// connects to, is the one to use (`imago serve`'s default).
enum HostAddressCheck {
    /// Throws `addressRefused` when any address of `url`'s host is refused by `limits.policy`. Blocking (DNS): call
    /// it off the cooperative pool.
    static func check(_ url: URL, limits: FetchLimits, source: String) throws {
        guard limits.policy != nil, let host = url.host else { return }
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else {
            throw ImagoError(.connectionFailed, "cannot resolve \(name)", source: source)
        }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0,
                NI_NUMERICHOST) == 0
            {
                let ip = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                try limits.checkConnection(to: ip, host: name, source: source)
            }
            entry = current.pointee.ai_next
        }
    }
}
