import Foundation

/// `maxb`: the output encoded within a byte limit.
extension ProcessingOptions {
    /// Why `maxb` cannot be met: the smallest output tried.
    public struct MaxBytesExceeded: Error, Sendable, Hashable, CustomStringConvertible {
        /// The limit asked for.
        public var limit: Int
        /// The smallest encoding tried, in bytes.
        public var smallest: Int
        /// Whether the format is lossless (no quality to lower).
        public var lossless: Bool

        public var description: String {
            lossless
                ? "maxb=\(limit): the lossless output is \(smallest) bytes"
                : "maxb=\(limit): even quality 10 gives \(smallest) bytes"
        }
    }

    /// Most encodes `maxb` may cost.
    public static let maxEncodes = 8

    /// Encodes once; with `maxBytes`, a lossy output too large is encoded again at lower qualities (a binary
    /// search from quality 10 to the one asked, at most `maxEncodes` encodes in all) and the best that fits is
    /// kept. Throws `MaxBytesExceeded` when even quality 10 does not fit, or a lossless format does not. CPU-bound:
    /// call it off the cooperative pool.
    public static func encode(
        _ image: DecodedImage, with encoder: any ImageEncoder, options: EncodeOptions, format: ImageFormat,
        maxBytes: Int?
    ) throws -> Data {
        let first = try encoder.encode(image, options: options)
        guard let maxBytes, first.count > maxBytes else { return first }
        guard OutputFormat.isLossy(format) else {
            throw MaxBytesExceeded(limit: maxBytes, smallest: first.count, lossless: true)
        }
        var (low, high, encodes, smallest) = (10, options.quality - 1, 1, first.count)
        var best: Data?
        while low <= high, encodes < maxEncodes {
            let middle = (low + high) / 2
            var lower = options
            lower.quality = middle
            let data = try encoder.encode(image, options: lower)
            encodes += 1
            smallest = min(smallest, data.count)
            if data.count <= maxBytes {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        guard let best else { throw MaxBytesExceeded(limit: maxBytes, smallest: smallest, lossless: false) }
        return best
    }
}
