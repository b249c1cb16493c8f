import Synchronization

/// Callbacks registered under a key, each with an id to remove it by (the chunk taps and the preview subscribers).
final class KeyedCallbacks<Key: Hashable & Sendable, Callback: Sendable>: Sendable {
    private struct State {
        var callbacks: [Key: [Int: Callback]] = [:]
        var nextID = 0
    }
    private let state = Mutex(State())

    /// Registers `callback` under `key`; returns the id to remove it with.
    func add(_ key: Key, _ callback: Callback) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.callbacks[key, default: [:]][state.nextID] = callback
            return state.nextID
        }
    }

    func remove(_ key: Key, _ id: Int) {
        state.withLock { state in
            state.callbacks[key]?[id] = nil
            if state.callbacks[key]?.isEmpty == true { state.callbacks[key] = nil }
        }
    }

    /// Whether any callback is registered under `key`.
    func contains(_ key: Key) -> Bool { state.withLock { $0.callbacks[key]?.isEmpty == false } }

    /// The callbacks of `key`, copied out so they are called outside the lock.
    func callbacks(for key: Key) -> [Callback] { state.withLock { $0.callbacks[key].map { Array($0.values) } ?? [] } }
}
