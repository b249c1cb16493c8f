import Foundation

/// The totals `load` ends with: loaded, failed, where images came from, bytes, time.
struct LoadSummary {
    var loaded = 0
    var failed = 0
    var origins: [String: Int] = [:]
    var bytes = 0
    let start = ContinuousClock.now

    mutating func add(_ outcome: LoadOutcome) {
        switch outcome.result {
        case .success(let response):
            loaded += 1
            origins[outcome.cache, default: 0] += 1  // the data cache's layer (`disk`, `redis`) for its hits
            bytes += response.metrics.byteCount
        case .failure:
            failed += 1
        }
    }

    /// One line, for example `loaded 5, failed 1 · memory 2, disk 0, network 3 · 1.2 MB · 0.84 s`.
    func line(total: Int, interrupted: Bool) -> String {
        let elapsed = (ContinuousClock.now - start).seconds
        var text = "loaded \(loaded), failed \(failed)"
        if interrupted { text += ", interrupted with \(total - loaded - failed) not finished" }
        text += " · memory \(origins["memory"] ?? 0), disk \(origins["disk"] ?? 0)"
        if let redis = origins["redis"] { text += ", redis \(redis)" }
        text += ", network \(origins["network"] ?? 0)"
        text += " · \(ByteFormat.string(bytes)) · \(ByteFormat.duration(elapsed))"
        return text
    }
}
