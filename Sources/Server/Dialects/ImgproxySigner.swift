/// imgproxy's URL signatures: unpadded base64url of HMAC-SHA256(key, salt + path), the path from the `/` after the
/// signature, optionally truncated to `size` bytes; several key/salt pairs for rotation. Without pairs any
/// signature segment is accepted, as imgproxy does.
struct ImgproxySigner: Sendable {
    /// Key and salt pairs, as bytes.
    let pairs: [(key: [UInt8], salt: [UInt8])]
    /// Bytes of the HMAC kept (1…32).
    let size: Int

    /// A signer of hex `keys` and `salts` (paired by position; validated by the settings).
    init(keys: [String], salts: [String], size: Int) {
        pairs = zip(keys, salts).map { (Hex.bytes($0) ?? [], Hex.bytes($1) ?? []) }
        self.size = max(1, min(32, size))
    }

    /// The signature of `path` (starting with `/`) under pair `index`.
    func signature(for path: some StringProtocol, pair index: Int = 0) -> String {
        let pair = pairs[index]
        return Base64URL.encode(HMACSHA256.code(key: pair.key, message: pair.salt + Array(path.utf8)).prefix(size))
    }

    /// Whether `signature` signs `path` under any pair (compared in constant time); always true without pairs.
    func accepts(signature: some StringProtocol, for path: some StringProtocol) -> Bool {
        guard !pairs.isEmpty else { return true }
        guard let given = Base64URL.decode(signature), given.count == size else { return false }
        let message = Array(path.utf8)
        var accepted = false
        for pair in pairs {
            let expected = Array(HMACSHA256.code(key: pair.key, message: pair.salt + message).prefix(size))
            accepted = URLSigner.constantTimeEqual(given, expected) || accepted
        }
        return accepted
    }
}
