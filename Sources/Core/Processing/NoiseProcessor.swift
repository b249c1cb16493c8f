/// Adds the same random amount to the three colour channels of each pixel, clamped: thumbor's `noise(N[,SEED])`,
/// the amount being `r mod N − N / 2` for successive numbers `r` of glibc's `random()` seeded with `seed` (which
/// is what thumbor uses on Linux, so a seeded URL gives thumbor's pixels). Every frame starts from the seed, as
/// thumbor's does. thumbor leaves seed 0 unseeded (the sequence continues across requests); here seed 0 is the
/// sequence glibc starts with, so processing stays deterministic. Alpha is kept.
public struct NoiseProcessor: ImageProcessor {
    /// The allowed amounts.
    public static let amountRange: ClosedRange<Int> = 0...100_000

    /// The spread of the added amount: values from −N/2 to N − 1 − N/2.
    public let amount: Int
    /// The seed of the sequence.
    public let seed: UInt32

    /// Creates the processor; an amount outside 0…100 000 throws `processingFailed`.
    public init(amount: Int, seed: UInt32 = 0) throws {
        guard Self.amountRange.contains(amount) else {
            throw ImagoError(.processingFailed, "noise \(amount) is not within 0…100000")
        }
        (self.amount, self.seed) = (amount, seed)
    }

    /// `noise(N,SEED)`.
    public var identifier: String { "noise(\(amount),\(seed))" }

    public func process(_ image: DecodedImage) throws -> DecodedImage {
        guard amount > 0 else { return image }
        return try image.mappingRasters { raster in
            var random = GlibcRandom(seed: seed)
            return try raster.mappingPixels { pixels, offset in
                let shift = Int(random.next() % UInt32(amount)) - amount / 2
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(clamping: Int(pixels[offset + channel]) + shift)
                }
            }
        }
    }
}

/// glibc's `random()` (its default additive feedback generator, `TYPE_3`: 31 words of state, `r[i] = r[i − 31] +
/// r[i − 3]`, each output the sum shifted right by one), seeded as `srandom(seed)` seeds it (0 counts as 1).
struct GlibcRandom {
    private var state: [UInt32]
    private var front = 3
    private var rear = 0

    init(seed: UInt32) {
        var words = [Int32](repeating: 0, count: 31)
        words[0] = Int32(bitPattern: seed == 0 ? 1 : seed)
        for index in 1..<31 {
            // 16807 × previous mod (2³¹ − 1), by Schrage's method in 32-bit signed arithmetic, as glibc computes it.
            let previous = Int64(words[index - 1])
            let high = previous / 127_773
            let low = previous % 127_773
            var word = 16807 * low - 2836 * high
            if word < 0 { word += 2_147_483_647 }
            words[index] = Int32(truncatingIfNeeded: word)
        }
        state = words.map { UInt32(bitPattern: $0) }
        // glibc discards the first 310 outputs.
        for _ in 0..<310 { _ = next() }
    }

    /// The next number, 0…2³¹ − 1.
    mutating func next() -> UInt32 {
        state[front] = state[front] &+ state[rear]
        let result = state[front] >> 1
        front = front == 30 ? 0 : front + 1
        rear = rear == 30 ? 0 : rear + 1
        return result
    }
}

extension NoiseProcessor: FrameWiseProcessing {
    /// Always: each frame starts from the seed.
    public var processesFramesIndependently: Bool { true }
}
