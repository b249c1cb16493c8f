import Foundation
import Synchronization

/// Encodes made, by format: what a server's `/metrics` shows as `imago_encodes_total{format}`, so the cost of
/// quality searches and best-format choices is visible. Wrap the encoders in `CountingEncoder` to fill it.
public final class EncodeCounter: Sendable {
    private let counts = Mutex<[ImageFormat: Int]>([:])

    /// Creates a counter at zero.
    public init() {}

    /// Records `count` encodes of `format`.
    public func record(_ format: ImageFormat, count: Int = 1) {
        counts.withLock { $0[format, default: 0] += count }
    }

    /// Encodes so far, by format.
    public var totals: [ImageFormat: Int] { counts.withLock { $0 } }

    /// Encodes of `format` so far.
    public func total(for format: ImageFormat) -> Int { counts.withLock { $0[format, default: 0] } }
}

/// An encoder that counts each encode it is asked for (whether it succeeds or not) in an `EncodeCounter`.
public struct CountingEncoder: ImageEncoder {
    /// The encoder doing the work.
    public let base: any ImageEncoder
    /// Where the encodes are counted.
    public let counter: EncodeCounter

    /// Wraps `base`, counting its encodes in `counter`.
    public init(_ base: any ImageEncoder, counter: EncodeCounter) {
        self.base = base
        self.counter = counter
    }

    public var format: ImageFormat { base.format }
    public var supportsAnimation: Bool { base.supportsAnimation }

    public func encode(_ image: DecodedImage, options: EncodeOptions) throws -> Data {
        counter.record(base.format)
        return try base.encode(image, options: options)
    }
}
