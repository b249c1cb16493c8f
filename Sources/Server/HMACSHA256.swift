import Imago

/// HMAC-SHA256 (RFC 2104) over Core's `SHA256`, for URL signatures.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func code(key: some Sequence<UInt8>, message: some Sequence<UInt8>) -> [UInt8] {
        var block = Array(key)
        if block.count > 64 {
            var hash = SHA256()
            hash.update(block)
            block = hash.finalize()
        }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
