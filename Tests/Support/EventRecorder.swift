import Foundation
import ImagoCore
import Synchronization

/// Records the events a loader sends, with a short name for each, so tests can check their order.
public final class EventRecorder: ImageLoadEventListener {
    private let events = Mutex<[ImageLoadEvent]>([])

    public init() {}

    public func receive(_ event: ImageLoadEvent) { events.withLock { $0.append(event) } }

    public var recorded: [ImageLoadEvent] { events.withLock { $0 } }
    /// The events' names, bytes received left out (their number depends on chunking).
    public var names: [String] { recorded.map(\.kind.testName).filter { $0 != "bytes" } }
    public var attempts: [FetchAttempt] {
        recorded.compactMap { if case .fetchEnded(let attempt) = $0.kind { attempt } else { nil } }
    }
    public var failure: ImagoError? {
        recorded.lazy.compactMap { if case .failed(let error) = $0.kind { error } else { nil } }.first
    }
}

extension ImageLoadEvent.Kind {
    /// A short name for order checks.
    public var testName: String {
        switch self {
        case .started: "started"
        case .memoryCacheHit: "memoryHit"
        case .memoryCacheMiss: "memoryMiss"
        case .dataCacheHit: "dataHit"
        case .dataCacheMiss(let stale): stale ? "dataStale" : "dataMiss"
        case .dataCacheRevalidated: "revalidated"
        case .dataCacheReadFailed: "dataReadFailed"
        case .fetchStarted(let attempt, _): "fetch\(attempt)"
        case .fetchEnded(let attempt):
            attempt.succeeded
                ? "fetched\(attempt.attempt)"
                : attempt.wasCancelled ? "fetchCancelled\(attempt.attempt)" : "fetchFailed\(attempt.attempt)"
        case .bytesReceived: "bytes"
        case .decoded: "decoded"
        case .processed: "processed"
        case .cacheWritten(let layer): "wrote:\(layer.rawValue)"
        case .cacheWriteFailed(let layer, _): "writeFailed:\(layer.rawValue)"
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

/// Collects values sent from any thread.
public final class Updates<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    public init() {}
    public func append(_ value: Value) { storage.withLock { $0.append(value) } }
    public var values: [Value] { storage.withLock { $0 } }
}
