import Foundation

extension DiskDataCache {
    /// Temporary files older than this are leftovers of a killed writer (a live one takes milliseconds).
    static let abandonedTemporaryFileAge: Double = 15 * 60

    /// Scans the folder and brings it within its limits: removes entries past `maxAge` (by last use), then, if the
    /// folder is over `sizeLimit`, the least recently used entries until it holds at most 90% of it; removes
    /// abandoned temporary files. Files may vanish meanwhile (another process evicting too): that is fine.
    ///
    /// One sweep runs at a time in a process; a sweep asked for while one runs is skipped, and the running one
    /// repeats if the folder is still over its limit when it ends.
    func sweep() {
        let started = state.withLock { state -> Bool in
            guard !state.sweeping else { return false }
            state.sweeping = true
            return true
        }
        guard started else { return }
        for _ in 0..<3 {
            let over = sweepOnce()
            if !over { break }
        }
        state.withLock { $0.sweeping = false }
    }

    /// Performs one scan and eviction; returns whether the folder was found over its limit again since.
    func sweepOnce() -> Bool {
        let time = now()
        var entries: [(name: String, size: Int, used: Date)] = []
        for name in files.names(in: directory.path) {
            if name.hasPrefix(Self.temporaryPrefix) {
                if let attributes = files.attributes(path(of: name)),
                    time.timeIntervalSince(attributes.modified) > Self.abandonedTemporaryFileAge
                {
                    files.remove(path(of: name))
                }
                continue
            }
            guard Self.isEntryName(name), let attributes = files.attributes(path(of: name)) else { continue }
            entries.append((name, attributes.size, attributes.modified))
        }
        var evicted = 0
        if let maxAge = configuration.maxAge {
            entries.removeAll { entry in
                guard time.timeIntervalSince(entry.used) > maxAge else { return false }
                files.remove(path(of: entry.name))
                evicted += 1
                return true
            }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        if total > configuration.sizeLimit {
            let target = configuration.sizeLimit - configuration.sizeLimit / 10
            entries.sort { ($0.used, $0.name) < ($1.used, $1.name) }
            var removed = 0
            while total > target, removed < entries.count {
                files.remove(path(of: entries[removed].name))
                total -= entries[removed].size
                removed += 1
            }
            evicted += removed
            entries.removeFirst(removed)
        }
        return state.withLock { state in
            var sizes = Dictionary(entries.map { ($0.name, $0.size) }, uniquingKeysWith: { $1 })
            sizes.merge(state.writtenDuringSweep) { $1 }
            state.writtenDuringSweep = [:]
            state.sizes = sizes
            state.totalBytes = sizes.values.reduce(0, +)
            state.scanned = true
            state.bytesWrittenSinceScan = 0
            state.stats.evictions += evicted
            return state.totalBytes > configuration.sizeLimit
        }
    }
}
