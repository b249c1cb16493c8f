/// XXH64, a fast non-cryptographic 64-bit hash: the checksum of each data cache entry (disk and Redis).
///
/// SHA-256 would also do, but runs at a fraction of the speed; a checksum only has to catch damage, not an
/// attacker (a foreign entry is caught by comparing keys).
public struct XXHash64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var lanes: (UInt64, UInt64, UInt64, UInt64)
    private var buffer: [UInt8] = []
    private var totalLength: UInt64 = 0

    /// A new hash.
    public init(seed: UInt64 = 0) {
        self.seed = seed
        lanes = (seed &+ Self.prime1 &+ Self.prime2, seed &+ Self.prime2, seed, seed &- Self.prime1)
        buffer.reserveCapacity(32)
    }

    /// Adds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        totalLength &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(32 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            offset = take
            guard buffer.count == 32 else { return }
            buffer.withUnsafeBytes { consumeStripe($0, at: 0) }
            buffer.removeAll(keepingCapacity: true)
        }
        while bytes.count - offset >= 32 {
            consumeStripe(bytes, at: offset)
            offset += 32
        }
        buffer.append(contentsOf: bytes[offset...])
    }

    /// Adds the bytes of a collection.
    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) != nil { return }
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// The hash of everything added.
    public func finalize() -> UInt64 {
        var hash: UInt64
        if totalLength >= 32 {
            let (v1, v2, v3, v4) = lanes
            hash = v1.rotated(1) &+ v2.rotated(7) &+ v3.rotated(12) &+ v4.rotated(18)
            for lane in [v1, v2, v3, v4] {
                hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4
            }
        } else {
            hash = seed &+ Self.prime5
        }
        hash &+= totalLength
        buffer.withUnsafeBytes { tail in
            var offset = 0
            while tail.count - offset >= 8 {
                let word = UInt64(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ Self.round(0, word)).rotated(27) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            if tail.count - offset >= 4 {
                let word = UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                hash = (hash ^ (word &* Self.prime1)).rotated(23) &* Self.prime2 &+ Self.prime3
                offset += 4
            }
            while offset < tail.count {
                hash = (hash ^ (UInt64(tail[offset]) &* Self.prime5)).rotated(11) &* Self.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// The hash of `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = XXHash64(seed: seed)
        hasher.update(bytes)
        return hasher.finalize()
    }

    private mutating func consumeStripe(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        func word(_ index: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 * index, as: UInt64.self))
        }
        lanes = (
            Self.round(lanes.0, word(0)), Self.round(lanes.1, word(1)), Self.round(lanes.2, word(2)),
            Self.round(lanes.3, word(3))
        )
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        (accumulator &+ input &* prime2).rotated(31) &* prime1
    }
}

extension UInt64 {
    fileprivate func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
