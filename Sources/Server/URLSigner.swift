/// Signs and checks image paths: the signature segment is the base64url (unpadded) HMAC-SHA256, under one of the
/// keys, of the path from the `/` after the signature onwards, exactly as sent.
///
/// ```swift
/// let signer = URLSigner(keys: ["secret"])
/// let path = signer.signedPath("/w=300/plain/https%3A%2F%2Fexample.com%2Fa.jpg")  // "/<signature>/w=300/plain/…"
/// ```
public struct URLSigner: Sendable {
    /// The secrets, as bytes; empty means signatures must be the literal `unsafe`.
    public let keys: [[UInt8]]

    /// A signer of UTF-8 `keys`.
    public init(keys: [String]) { self.keys = keys.map { Array($0.utf8) } }

    /// The signature of `path` (which starts with `/`) under key `keyIndex`.
    public func signature(for path: some StringProtocol, keyIndex: Int = 0) -> String {
        Base64URL.encode(HMACSHA256.code(key: keys[keyIndex], message: Array(path.utf8)))
    }

    /// `path` (starting with `/`) with its signature in front; `/unsafe…` when there are no keys.
    public func signedPath(_ path: String) -> String {
        keys.isEmpty ? "/unsafe" + path : "/" + signature(for: path) + path
    }

    /// Whether `signature` is acceptable for `path`: `unsafe` exactly when there are no keys, else an HMAC of
    /// `path` by any key (compared in constant time).
    public func accepts(signature: some StringProtocol, for path: some StringProtocol) -> Bool {
        if keys.isEmpty { return signature == "unsafe" }
        guard let given = Base64URL.decode(signature), given.count == 32 else { return false }
        let message = Array(path.utf8)
        var accepted = false
        for key in keys {
            let expected = HMACSHA256.code(key: key, message: message)
            accepted = Self.constantTimeEqual(given, expected) || accepted
        }
        return accepted
    }

    /// Whether two byte strings are equal, in time that does not depend on where they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
