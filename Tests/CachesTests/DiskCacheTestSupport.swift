import Foundation
import Synchronization

@testable import ImagoCaches

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "imago-caches-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The entry files in the folder.
    var entryNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter(DiskDataCache.isEntryName).sorted()
    }

    /// The temporary files in the folder.
    var temporaryNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
            $0.hasPrefix(DiskDataCache.temporaryPrefix)
        }
    }

    /// Bytes of the entry files in the folder.
    var entryBytes: Int {
        entryNames.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)[.size])
            return total + ((size as? NSNumber)?.intValue ?? 0)
        }
    }

    /// How many entry files were modified (written, or read through the cache) since `date`.
    func entriesModified(since date: Date) -> Int {
        entryNames.filter { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)
            return ((attributes?[.modificationDate] as? Date) ?? .distantPast) >= date
        }.count
    }

    /// The path of `key`'s entry file.
    func entryPath(_ key: CacheKey) -> String { url.appendingPathComponent(DiskDataCache.fileName(for: key)).path }
}

/// Entries whose bytes follow from their key and generation, so any entry read back can be checked exactly.
enum Generated {
    /// The entry for `key` at `generation`, `size` bytes long (by default varying with the generation).
    static func entry(_ key: CacheKey, generation: Int, size: Int? = nil) -> DataCacheEntry {
        let count = size ?? (100 + (generation * 7919) % 3000)
        var state = UInt64(truncatingIfNeeded: key.rawValue.hashValueStable &+ generation &* 0x9E37_79B9)
        var words = [UInt64](repeating: 0, count: count / 8 + 1)
        for index in words.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words[index] = state
        }
        let bytes = words.withUnsafeBytes { Array($0.prefix(count)) }
        let metadata = CacheMetadata(
            etag: "\"\(generation)\"", lastModified: "gen \(generation)",
            expires: Date(timeIntervalSince1970: 2_000_000_000 + Double(generation)),
            storedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(generation)), contentType: "image/x-test")
        return DataCacheEntry(data: Data(bytes), metadata: metadata)
    }

    /// Whether `entry` is exactly what `entry(key, generation:)` gives for the generation its ETag names.
    static func isExact(_ entry: DataCacheEntry, for key: CacheKey, size: Int? = nil) -> Bool {
        guard let etag = entry.metadata.etag, let generation = Int(etag.dropFirst().dropLast()) else { return false }
        return entry == Self.entry(key, generation: generation, size: size)
    }
}

extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is seeded per process).
    var hashValueStable: Int {
        Int(
            truncatingIfNeeded: utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
                ($0 ^ UInt64($1)) &* 1_099_511_628_211
            })
    }
}

/// The largest of the values recorded by concurrent tasks.
final class Maximum: Sendable {
    private let largest = Mutex(0)
    var value: Int { largest.withLock { $0 } }
    func record(_ value: Int) { largest.withLock { $0 = max($0, value) } }
}

/// Collects errors reported through `onError`.
final class ErrorLog: Sendable {
    private let errors = Mutex<[ImagoError]>([])
    var all: [ImagoError] { errors.withLock { $0 } }
    func record(_ error: ImagoError) { errors.withLock { $0.append(error) } }
}

/// A clock for the disk cache that the test moves by hand (each reading also ticks 1 ms, so uses are ordered).
final class DiskClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    func now() -> Date {
        time.withLock {
            $0.addTimeInterval(0.001)
            return $0
        }
    }
    func advance(_ seconds: Double) { time.withLock { $0.addTimeInterval(seconds) } }
}
