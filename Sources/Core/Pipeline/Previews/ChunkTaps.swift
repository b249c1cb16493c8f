import Foundation
import Synchronization

/// Lets preview work see the body chunks of a fetch it shares with other requests, as they arrive.
///
/// A fetch calls the feeder for every chunk; with no tap on its key that is one lookup under a lock, so loads
/// without previews pay nothing else.
final class ChunkTaps: Sendable {
    typealias Tap = @Sendable (_ chunk: Data, _ offset: Int) -> Void

    private let taps = KeyedCallbacks<FetchWorkKey, Tap>()

    /// Starts seeing the chunks of the fetches of `key`; returns the id to remove it with.
    func add(_ key: FetchWorkKey, _ tap: @escaping Tap) -> Int { taps.add(key, tap) }

    func remove(_ key: FetchWorkKey, _ id: Int) { taps.remove(key, id) }

    /// What a fetch of `key` calls with each chunk.
    func feeder(for key: FetchWorkKey) -> Tap {
        { [taps] chunk, offset in
            for tap in taps.callbacks(for: key) { tap(chunk, offset) }
        }
    }
}

/// The callers waiting for previews of a load, by the load's key; preview work publishes to them.
final class PreviewHub: Sendable {
    typealias Subscriber = @Sendable (ImageResponse) -> Void

    private let subscribers = KeyedCallbacks<ImageWorkKey, Subscriber>()
    let previewsMade = Atomic<Int>(0)
    let incrementalFinals = Atomic<Int>(0)
    let liveSessions = Atomic<Int>(0)

    func subscribe(_ key: ImageWorkKey, _ subscriber: @escaping Subscriber) -> Int { subscribers.add(key, subscriber) }

    func unsubscribe(_ key: ImageWorkKey, _ id: Int) { subscribers.remove(key, id) }

    /// Whether anyone still waits for previews of `key` (else the preview work renders none).
    func hasSubscribers(_ key: ImageWorkKey) -> Bool { subscribers.contains(key) }

    func publish(_ key: ImageWorkKey, _ response: ImageResponse) {
        for subscriber in subscribers.callbacks(for: key) { subscriber(response) }
    }
}
