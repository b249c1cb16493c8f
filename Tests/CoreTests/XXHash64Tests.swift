import ImagoCore
import Testing

@Suite struct XXHash64Tests {
    @Test func matchesReferenceValues() {
        #expect(Array("".utf8).withUnsafeBytes { XXHash64.hash($0) } == 0xEF46_DB37_51D8_E999)
        #expect(Array("a".utf8).withUnsafeBytes { XXHash64.hash($0) } == 0xD24E_C4F1_A98C_6E5B)
        #expect(Array("abc".utf8).withUnsafeBytes { XXHash64.hash($0) } == 0x44BC_2CF5_AD77_0999)
    }

    @Test func givesTheSameHashInAnyChunking() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = bytes.withUnsafeBytes { XXHash64.hash($0) }
        for chunk in [1, 3, 31, 32, 33, 100] {
            var hasher = XXHash64()
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                hasher.update(bytes[start..<min(start + chunk, bytes.count)])
            }
            #expect(hasher.finalize() == whole, "chunk \(chunk)")
        }
    }

    @Test func changesWithAnySingleBitFlip() {
        let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 17) }
        let original = bytes.withUnsafeBytes { XXHash64.hash($0) }
        for position in stride(from: 0, to: bytes.count * 8, by: 7) {
            var flipped = bytes
            flipped[position / 8] ^= 1 << (position % 8)
            #expect(flipped.withUnsafeBytes { XXHash64.hash($0) } != original)
        }
    }
}
