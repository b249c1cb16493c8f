import Imago
import Synchronization

/// The server's counters, rendered in the Prometheus text format at `/metrics`.
final class ServerMetrics: Sendable {
    /// Upper bounds of the request-duration histogram, in seconds.
    static let bucketBounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [Int: Int] = [:]
        var buckets = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
        var durationSum = 0.0
        var durationCount = 0
        var resultHits = 0
        var coalesced = 0
        var shed = 0
        var disconnects = 0
        var renders = 0
        var storeHits = 0
    }

    private let state = Mutex(State())
    /// Encodes made by this process's renders, by format (a q=auto search and f=best make several).
    let encodes = EncodeCounter()
    private let inflight = Atomic<Int>(0)

    /// A request finished with `status` after `seconds`.
    func recordRequest(status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[status, default: 0] += 1
            for (index, bound) in Self.bucketBounds.enumerated() where seconds <= bound { state.buckets[index] += 1 }
            state.durationSum += seconds
            state.durationCount += 1
        }
    }

    func recordResultHit() { state.withLock { $0.resultHits += 1 } }
    func recordCoalesced() { state.withLock { $0.coalesced += 1 } }
    func recordShed() { state.withLock { $0.shed += 1 } }
    func recordDisconnect() { state.withLock { $0.disconnects += 1 } }
    func recordRender() { state.withLock { $0.renders += 1 } }
    func recordStoreHit() { state.withLock { $0.storeHits += 1 } }
    func recordEncodes(_ counts: [ImageFormat: Int]) {
        for (format, count) in counts { encodes.record(format, count: count) }
    }
    func enter() { inflight.wrappingAdd(1, ordering: .relaxed) }
    func leave() { inflight.wrappingSubtract(1, ordering: .relaxed) }

    /// Requests being answered now.
    var inflightCount: Int { inflight.load(ordering: .relaxed) }
    /// Requests answered from the result cache so far.
    var resultHits: Int { state.withLock { $0.resultHits } }

    /// The Prometheus text exposition (version 0.0.4) of these counters and the loader's.
    func text(loader: LoaderStatistics, resultCacheBytes: Int, fleet: ServeFleet) -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
        }
        family("imago_requests_total", "counter", "Requests answered, by HTTP status.")
        for (status, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            lines.append("imago_requests_total{status=\"\(status)\"} \(count)")
        }
        family("imago_request_duration_seconds", "histogram", "Time from the request line to the response queued.")
        for (index, bound) in Self.bucketBounds.enumerated() {
            lines.append("imago_request_duration_seconds_bucket{le=\"\(bound)\"} \(snapshot.buckets[index])")
        }
        lines.append("imago_request_duration_seconds_bucket{le=\"+Inf\"} \(snapshot.durationCount)")
        lines.append("imago_request_duration_seconds_sum \(snapshot.durationSum)")
        lines.append("imago_request_duration_seconds_count \(snapshot.durationCount)")
        family("imago_source_fetches_total", "counter", "Source fetches made by this process (retries included).")
        lines.append("imago_source_fetches_total \(loader.transportAttempts - fleet.sourceCopies)")
        family("imago_renders_total", "counter", "Images processed and encoded by this process.")
        lines.append("imago_renders_total \(snapshot.renders)")
        family("imago_encodes_total", "counter", "Encodes made by this process's renders, by format.")
        for (format, count) in encodes.totals.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("imago_encodes_total{format=\"\(format.rawValue)\"} \(count)")
        }
        family("imago_inflight_requests", "gauge", "Requests being answered now.")
        lines.append("imago_inflight_requests \(inflight.load(ordering: .relaxed))")
        family("imago_cache_hits_total", "counter", "Hits of the result cache and the loader's memory and disk caches.")
        lines.append("imago_cache_hits_total{cache=\"result\"} \(snapshot.resultHits)")
        lines.append("imago_cache_hits_total{cache=\"store\"} \(snapshot.storeHits)")
        lines.append("imago_cache_hits_total{cache=\"memory\"} \(loader.memoryHits)")
        lines.append("imago_cache_hits_total{cache=\"disk\"} \(loader.diskHits)")
        family("imago_coalesced_requests_total", "counter", "Requests that joined an identical one in flight.")
        lines.append("imago_coalesced_requests_total \(snapshot.coalesced)")
        family("imago_shed_requests_total", "counter", "Requests refused with 503 because the queue was full.")
        lines.append("imago_shed_requests_total \(snapshot.shed)")
        family(
            "imago_client_disconnects_total", "counter",
            "Requests whose client closed its connection before the answer.")
        lines.append("imago_client_disconnects_total \(snapshot.disconnects)")
        family("imago_decodes_total", "counter", "Images decoded by the loader.")
        lines.append("imago_decodes_total \(loader.decodes)")
        family("imago_detections_total", "counter", "Detector runs (faces), each on one source's bytes.")
        lines.append("imago_detections_total \(loader.detections)")
        family(
            "imago_detection_cache_hits_total", "counter",
            "Detections answered from the loader's memory or data cache (the same source's bytes).")
        lines.append("imago_detection_cache_hits_total \(loader.detectionCacheHits)")
        family("imago_detection_cpu_seconds_total", "counter", "CPU seconds the detectors' threads spent.")
        lines.append("imago_detection_cpu_seconds_total \(loader.detectionCPUSeconds)")
        family("imago_result_cache_bytes", "gauge", "Bytes held by the result cache.")
        lines.append("imago_result_cache_bytes \(resultCacheBytes)")
        family(
            "imago_shared_store_errors_total", "counter",
            "Failures of the fleet's shared parts (lease, results, sources), answered by working alone.")
        for (store, op, count) in fleet.errors {
            lines.append("imago_shared_store_errors_total{store=\"\(store)\",op=\"\(op)\"} \(count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
