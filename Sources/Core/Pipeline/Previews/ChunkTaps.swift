import Foundation
import Synchronization

/// Lets preview work see the body chunks of a fetch it shares with other requests, as they arrive.
///
/// A fetch calls the feeder for every chunk; with no tap on its key that is one lookup under a lock, so loads
/// without previews pay nothing else.
final class ChunkTaps: Sendable {
    typealias Tap = @Sendable (_ chunk: Data, _ offset: Int) -> Void

    private struct State {
        var taps: [FetchWorkKey: [Int: Tap]] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())

    /// Starts seeing the chunks of the fetches of `key`; returns the id to remove it with.
    func add(_ key: FetchWorkKey, _ tap: @escaping Tap) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.taps[key, default: [:]][state.nextID] = tap
            return state.nextID
        }
    }

    func remove(_ key: FetchWorkKey, _ id: Int) {
        state.withLock { state in
            state.taps[key]?[id] = nil
            if state.taps[key]?.isEmpty == true { state.taps[key] = nil }
        }
    }

    /// What a fetch of `key` calls with each chunk.
    func feeder(for key: FetchWorkKey) -> Tap {
        { [self] chunk, offset in
            let taps = state.withLock { $0.taps[key].map { Array($0.values) } }
            for tap in taps ?? [] { tap(chunk, offset) }
        }
    }
}

/// The callers waiting for previews of a load, by the load's key; preview work publishes to them.
final class PreviewHub: Sendable {
    typealias Subscriber = @Sendable (ImageResponse) -> Void

    private struct State {
        var subscribers: [ImageWorkKey: [Int: Subscriber]] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())
    let previewsMade = Atomic<Int>(0)
    let incrementalFinals = Atomic<Int>(0)
    let liveSessions = Atomic<Int>(0)

    func subscribe(_ key: ImageWorkKey, _ subscriber: @escaping Subscriber) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.subscribers[key, default: [:]][state.nextID] = subscriber
            return state.nextID
        }
    }

    func unsubscribe(_ key: ImageWorkKey, _ id: Int) {
        state.withLock { state in
            state.subscribers[key]?[id] = nil
            if state.subscribers[key]?.isEmpty == true { state.subscribers[key] = nil }
        }
    }

    /// Whether anyone still waits for previews of `key` (else the preview work renders none).
    func hasSubscribers(_ key: ImageWorkKey) -> Bool {
        state.withLock { $0.subscribers[key]?.isEmpty == false }
    }

    func publish(_ key: ImageWorkKey, _ response: ImageResponse) {
        let subscribers = state.withLock { $0.subscribers[key].map { Array($0.values) } }
        for subscriber in subscribers ?? [] { subscriber(response) }
    }
}
