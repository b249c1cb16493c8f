import Synchronization

/// Counts of the work a loader has done since it was created, for benchmarks and diagnostics
/// (for example: fifty coalesced callers show one transport fetch and one decode).
public struct LoaderStatistics: Sendable, Hashable {
    /// Responses served from the memory cache.
    public var memoryHits: Int
    /// Byte fetches served from the disk cache (fresh, or revalidated by a 304).
    public var diskHits: Int
    /// Transport attempts started (retries included).
    public var transportAttempts: Int
    /// Images decoded.
    public var decodes: Int
    /// Detections run (`ImageLoader.detect(_:in:)`), each costing `detectionCPUSeconds / detections` on average.
    public var detections: Int = 0
    /// Detections answered from memory or the data cache instead of running the detector.
    public var detectionCacheHits: Int = 0
    /// CPU seconds the detectors' threads spent on the detections run.
    public var detectionCPUSeconds: Double = 0
}

/// The loader's live counters.
final class LoaderCounters: Sendable {
    let memoryHits = Atomic<Int>(0)
    let diskHits = Atomic<Int>(0)
    let transportAttempts = Atomic<Int>(0)
    let decodes = Atomic<Int>(0)
    let detections = Atomic<Int>(0)
    let detectionHits = Atomic<Int>(0)
    let detectionMicroseconds = Atomic<Int>(0)

    var snapshot: LoaderStatistics {
        LoaderStatistics(
            memoryHits: memoryHits.load(ordering: .relaxed), diskHits: diskHits.load(ordering: .relaxed),
            transportAttempts: transportAttempts.load(ordering: .relaxed), decodes: decodes.load(ordering: .relaxed),
            detections: detections.load(ordering: .relaxed), detectionCacheHits: detectionHits.load(ordering: .relaxed),
            detectionCPUSeconds: Double(detectionMicroseconds.load(ordering: .relaxed)) / 1e6)
    }
}

extension Atomic where Value == Int {
    func increment() { wrappingAdd(1, ordering: .relaxed) }
}
