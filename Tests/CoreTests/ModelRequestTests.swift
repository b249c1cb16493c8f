import Foundation
import ImagoTestSupport
import Testing

@testable import ImagoCore

private struct Tint: ImageProcessor {
    var amount: Int
    var identifier: String { "tint(\(amount))" }
    func process(_ image: DecodedImage) throws -> DecodedImage { image }
}

@Suite struct ImageRequestTests {
    @Test func parsesURLsAndPlainPaths() throws {
        #expect(try ImageRequest.url(from: "https://example.com/a.png").scheme == "https")
        #expect(try ImageRequest.url(from: "/tmp/a b.png").isFileURL)
        #expect(try ImageRequest.url(from: "relative/a.png").isFileURL)
        #expect(try ImageRequest.url(from: "data:image/png;base64,AAAA").scheme == "data")
    }

    @Test func refusesControlCharactersBeforeAnythingIsSent() {
        for source in ["http://x/a\r\nHost: evil", "http://x/\u{7F}", "file:///tmp/a\n.png", ""] {
            let error = #expect(throws: ImagoError.self) { try ImageRequest(source: source) }
            #expect(error?.kind == .invalidSource)
        }
    }

    @Test func imageKeyHoldsEverythingThatChangesPixelsAndDataKeyOnlyTheSource() throws {
        let url = try #require(URL(string: "https://example.com/a.png"))
        let plain = ImageRequest(url: url)
        let tinted = ImageRequest(url: url, processors: [Tint(amount: 1)])
        let tinted2 = ImageRequest(url: url, processors: [Tint(amount: 2)])
        let small = ImageRequest(url: url, decodeOptions: DecodeOptions(targetSize: PixelSize(width: 10, height: 10)))
        let stored = ImageRequest(url: url, appliesOrientation: false)
        let retina = ImageRequest(url: url, scale: 2)
        let keys = [plain, tinted, tinted2, small, stored, retina].map(\.imageCacheKey)
        #expect(Set(keys).count == keys.count)
        #expect(Set([plain, tinted, small, stored, retina].map(\.dataCacheKey)).count == 1)
        // Priority and cache policy do not change the pixels, so they are not part of the key.
        let urgent = ImageRequest(url: url, priority: .veryHigh, cachePolicy: .reload)
        #expect(urgent.imageCacheKey == plain.imageCacheKey)
    }

    @Test func cachePoliciesCompose() {
        #expect(CachePolicy.default.contains(.readDisk))
        #expect(!CachePolicy.reload.contains(.readMemory))
        #expect(CachePolicy.reload.contains(.writeMemory))
        #expect(CachePolicy.none.isEmpty)
    }
}

@Suite struct ImagoErrorTests {
    @Test func describesWithTheSourceAndKindName() {
        let error = ImagoError(.transportFailed(status: 404), "404 Not Found", source: "https://x/a.png")
        #expect(error.description == "https://x/a.png: 404 Not Found")
        #expect(error.kind.name == "transportFailed")
        #expect(error.statusCode == 404)
        #expect(ImagoError(.timedOut, "timed out after 10 s").description == "timed out after 10 s")
    }

    @Test func shortensLongDataURIsInMessages() {
        let source = "data:image/png;base64," + String(repeating: "A", count: 500)
        let text = ImagoError(.decodingFailed(format: .png), "bad", source: source).description
        #expect(text.count < 80)
        #expect(text.hasSuffix(": bad"))
    }

    @Test func wrapsForeignErrors() {
        #expect(ImagoError.wrapping(CancellationError()).kind == .cancelled)
        let wrapped = ImagoError.wrapping(URLError(.cannotConnectToHost), source: "http://127.0.0.1:9/")
        #expect(wrapped.kind == .connectionFailed)
        #expect(wrapped.source == "http://127.0.0.1:9/")
        #expect((wrapped.underlying as? URLError)?.code == .cannotConnectToHost)
        #expect(ImagoError.wrapping(POSIXError(.ECONNRESET)).kind == .connectionFailed)
        #expect(ImagoError.wrapping(URLError(.secureConnectionFailed)).kind == .transportFailed(status: nil))
        #expect(ImagoError.wrapping(CocoaError(.fileReadNoPermission)).kind == .transportFailed(status: nil))
        let named = ImagoError(.tooLarge, "x").naming("a").naming("b")
        #expect(named.source == "a")
    }
}

@Suite struct SHA256Tests {
    @Test func matchesKnownVectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var hash = SHA256()
        hash.update(bytes[0..<3])
        bytes[3..<200].withUnsafeBytes { hash.update($0) }
        hash.update(Array(bytes[200...]))
        #expect(hash.hexDigest() == SHA256.hex(bytes))
    }
}
