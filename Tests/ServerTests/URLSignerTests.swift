import Foundation
import Testing

@testable import ImagoServer

@Suite struct URLSignerTests {
    let path = "/w=300,h=200/plain/https%3A%2F%2Fexample.com%2Fa.jpg"

    @Test func signsWithHMACSHA256InBase64URL() {
        let signer = URLSigner(keys: ["secret"])
        let signature = signer.signature(for: path)
        #expect(signature == Base64URL.encode(HMACSHA256.code(key: Array("secret".utf8), message: Array(path.utf8))))
        #expect(signature.count == 43)
        #expect(signer.signedPath(path) == "/" + signature + path)
        #expect(signer.accepts(signature: signature, for: path))
        #expect(!signer.accepts(signature: signature, for: path + "x"))
        #expect(!signer.accepts(signature: String(signature.dropLast()) + "A", for: path))
        #expect(!signer.accepts(signature: "unsafe", for: path))
        #expect(!signer.accepts(signature: "", for: path))
        #expect(!signer.accepts(signature: signature + "=", for: path))
    }

    @Test func acceptsAnyOfSeveralKeys() {
        let signer = URLSigner(keys: ["old", "new"])
        #expect(signer.accepts(signature: URLSigner(keys: ["old"]).signature(for: path), for: path))
        #expect(signer.accepts(signature: URLSigner(keys: ["new"]).signature(for: path), for: path))
        #expect(!signer.accepts(signature: URLSigner(keys: ["other"]).signature(for: path), for: path))
    }

    @Test func withoutKeysOnlyUnsafePasses() {
        let signer = URLSigner(keys: [])
        #expect(signer.accepts(signature: "unsafe", for: path))
        #expect(!signer.accepts(signature: "UNSAFE", for: path))
        #expect(!signer.accepts(signature: URLSigner(keys: ["k"]).signature(for: path), for: path))
        #expect(signer.signedPath(path) == "/unsafe" + path)
    }

    @Test func matchesTheShellRecipeInTheDocs() throws {
        // Docs/Server.md: printf '%s' "$path" | openssl dgst -sha256 -hmac "$key" -binary | base64 | tr '+/' '-_' | tr -d '='
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "printf '%s' \"$1\" | openssl dgst -sha256 -hmac secret -binary | base64 | tr '+/' '-_' | tr -d '='",
            "sh", path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            text.trimmingCharacters(in: .whitespacesAndNewlines) == URLSigner(keys: ["secret"]).signature(for: path))
    }
}
