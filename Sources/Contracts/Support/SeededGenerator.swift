/// A small deterministic random generator (SplitMix64), so every run of a contract checks the same bytes.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes of noise.
    mutating func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            // Eight bytes a step: payloads of megabytes stay quick in debug builds.
            var offset = 0
            while offset < count {
                var word = next()
                for index in offset..<min(offset + 8, count) {
                    buffer[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                }
                offset += 8
            }
        }
        return bytes
    }
}
