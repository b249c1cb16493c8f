import CCrypto
import Foundation

/// thumbor's URL signatures: urlsafe base64 (padded) of HMAC-SHA1(security key, the path after `/HASH/`), as
/// received. HMAC-SHA1 is OpenSSL's (libcrypto).
struct ThumborSigner: Sendable {
    /// The security key, as bytes.
    let key: [UInt8]

    /// A signer of the UTF-8 `key`.
    init(key: String) { self.key = Array(key.utf8) }

    /// The 20-byte HMAC-SHA1 of `message` under `key` (OpenSSL's one-shot `HMAC`).
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { message in
                _ = HMAC(
                    EVP_sha1(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &output,
                    &length)
            }
        }
        return output
    }

    /// The hash segment of `path` (what follows `/HASH/`): padded urlsafe base64, 28 characters.
    func signature(for path: some StringProtocol) -> String {
        let text = Base64URL.encode(Self.hmacSHA1(key: key, message: Array(path.utf8)))
        return text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    }

    /// Whether `hash` signs `path` (compared in constant time); the padding may be percent-encoded (`%3D`).
    func accepts(hash: some StringProtocol, for path: some StringProtocol) -> Bool {
        var text = String(hash).replacingOccurrences(of: "%3D", with: "=").replacingOccurrences(of: "%3d", with: "=")
        guard text.count == 28, text.hasSuffix("=") else { return false }
        text.removeLast()
        guard let given = Base64URL.decode(text) else { return false }
        return URLSigner.constantTimeEqual(given, Self.hmacSHA1(key: key, message: Array(path.utf8)))
    }
}
