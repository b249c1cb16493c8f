import Foundation
import ImagoCore
import Synchronization

/// Deliberately broken transports over a `MemoryTransport`'s store, each breaking one promise.
enum BrokenTransports {
    /// Sends the first chunk before `.response`.
    struct BytesBeforeResponse: ImageTransport {
        let store: MemoryTransport
        var schemes: Set<String> { store.schemes }
        func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
            let upstream = store.fetch(request)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    var head: TransportEvent?
                    do {
                        for try await event in upstream {
                            if case .response = event, head == nil {
                                head = event
                                continue
                            }
                            continuation.yield(event)
                            if let pending = head {
                                continuation.yield(pending)
                                head = nil
                            }
                        }
                        if let head { continuation.yield(head) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Sends the first chunk, then waits for the rest in one call that cancellation cannot interrupt (as a
    /// transport blocking on a semaphore or a synchronous read would).
    struct IgnoresCancellation: ImageTransport {
        let store: MemoryTransport
        var schemes: Set<String> { store.schemes }
        func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
            let source = request.url.absoluteString
            guard let data = store.data(at: request.url) else {
                return AsyncThrowingStream {
                    $0.finish(throwing: ImagoError(.invalidSource, "missing", source: source))
                }
            }
            let cursor = Cursor(data: data)
            return AsyncThrowingStream {
                guard let event = cursor.next() else { return nil }
                // A slow link: a second per megabyte, in one wait.
                if case .bytes(let chunk) = event, chunk.count > 65536 {
                    await Self.uninterruptibleWait(seconds: Double(chunk.count) / 1_000_000)
                }
                return event
            }
        }

        static func uninterruptibleWait(seconds: Double) async {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
            }
        }

        /// Hands out the response, a first 64 KB chunk, then the rest in one piece.
        final class Cursor: Sendable {
            let data: Data
            private let step = Mutex(0)
            init(data: Data) { self.data = data }
            func next() -> TransportEvent? {
                let current = step.withLock { step in
                    defer { step += 1 }
                    return step
                }
                let split = min(65536, data.count)
                switch current {
                case 0: return .response(TransportMetadata(expectedLength: Int64(data.count)))
                case 1 where split > 0: return .bytes(data.subdata(in: 0..<split))
                case 2 where split < data.count: return .bytes(data.subdata(in: split..<data.count))
                default: return nil
                }
            }
        }
    }

    /// Fails with a foreign error that names no source.
    struct AnonymousErrors: ImageTransport {
        struct Failure: Error {}
        let store: MemoryTransport
        var schemes: Set<String> { store.schemes }
        func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
            guard serves(request.url), store.data(at: request.url) != nil else {
                return AsyncThrowingStream { $0.finish(throwing: Failure()) }
            }
            return store.fetch(request)
        }
    }

    /// Stops delivering when the consumer leaves (the stream ends at once), but its producer runs on, reading the
    /// whole source into a stream nobody reads: a runaway only the producer side shows.
    final class KeepsProducing: ImageTransport {
        let store: MemoryTransport
        private let produced = Mutex<[URL: Int]>([:])
        init(store: MemoryTransport) { self.store = store }
        var schemes: Set<String> { store.schemes }

        /// Bytes the producer has read of `url`'s source.
        func producedBytes(_ url: URL) -> Int { produced.withLock { $0[url] ?? 0 } }

        func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
            let url = request.url
            guard let data = store.data(at: url) else {
                return AsyncThrowingStream {
                    $0.finish(throwing: ImagoError(.invalidSource, "missing", source: url.absoluteString))
                }
            }
            return AsyncThrowingStream { continuation in
                // No onTermination: nothing tells the producer the consumer has gone.
                Task {
                    continuation.yield(.response(TransportMetadata(expectedLength: Int64(data.count))))
                    var offset = 0
                    while offset < data.count {
                        let end = min(offset + 16384, data.count)
                        continuation.yield(.bytes(data.subdata(in: offset..<end)))
                        self.produced.withLock { $0[url, default: 0] += end - offset }
                        offset = end
                        // A slow link: 16 KB every 2 ms.
                        try? await Task.sleep(nanoseconds: 2_000_000)
                    }
                    continuation.finish()
                }
            }
        }
    }
}
