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
}
