import Foundation
import Synchronization

/// A detector's answer as the data cache keeps it: a small JSON document naming the source key, the detector and a
/// digest of the source's bytes, so an entry is used only for the very bytes it was computed on (a source that
/// changed behind its URL is detected again) and a damaged or foreign entry reads as a miss.
struct DetectionCacheEntry: Codable, Equatable {
    static let format = "imago-detection"
    static let version = 1

    var format: String
    var version: Int
    /// The source's data-cache key.
    var source: String
    /// XXH64 of the source's bytes, in hex.
    var digest: String
    var result: DetectionResult

    /// The data-cache key of `detector`'s answers for `request`'s source.
    static func key(for request: ImageRequest, detector: String) -> CacheKey {
        CacheKey("detection|\(detector)|\(request.dataCacheKey.rawValue)")
    }

    /// The digest of `data`.
    static func digest(of data: Data) -> String {
        let hash = data.withUnsafeBytes { XXHash64.hash($0) }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    init(source: CacheKey, digest: String, result: DetectionResult) {
        format = Self.format
        version = Self.version
        self.source = source.rawValue
        self.digest = digest
        self.result = result
    }

    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The answer stored in `data`, if it is a well-formed entry for `source`'s bytes `digest` and `detector`, with
    /// regions inside the image it names.
    static func result(in data: Data, source: CacheKey, digest: String, detector: String) -> DetectionResult? {
        guard data.count < 1 << 20, let entry = try? JSONDecoder().decode(Self.self, from: data),
            entry.format == format, entry.version == version, entry.source == source.rawValue,
            entry.digest == digest, entry.result.detector == detector, entry.result.imageSize.width > 0,
            entry.result.imageSize.height > 0,
            entry.result.regions.allSatisfy({
                $0.isInside(entry.result.imageSize) && (0...1).contains($0.confidence)
            })
        else { return nil }
        return entry.result
    }
}

/// The answers of recent detections in memory, by data-cache key and digest: at most `limit` of them (each a few
/// hundred bytes), the oldest dropped first.
final class DetectionMemory: Sendable {
    private struct State {
        var results: [CacheKey: (digest: String, result: DetectionResult)] = [:]
        var order: [CacheKey] = []
    }
    private let state = Mutex(State())
    let limit: Int

    init(limit: Int = 2048) { self.limit = limit }

    func result(for key: CacheKey, digest: String) -> DetectionResult? {
        state.withLock { state in
            guard let entry = state.results[key], entry.digest == digest else { return nil }
            return entry.result
        }
    }

    func store(_ result: DetectionResult, for key: CacheKey, digest: String) {
        state.withLock { state in
            if state.results.updateValue((digest, result), forKey: key) == nil { state.order.append(key) }
            while state.order.count > limit { state.results[state.order.removeFirst()] = nil }
        }
    }
}
