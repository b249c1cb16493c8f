import Foundation
import Imago

/// What the disk cache's folder holds.
struct DiskCacheStats {
    var entries = 0
    var bytes = 0

    /// Counts the regular files under `directory` (a missing folder is an empty cache).
    init(directory: URL) {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: keys) else {
            return
        }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            entries += 1
            bytes += values.fileSize ?? 0
        }
    }

    /// Empties the cache.
    static func clear(directory: URL) async {
        // TODO(cli): through DiskDataCache.removeAll() once the caches land.
    }
}
