import Foundation
import ImagoCore
import Synchronization

/// A complete example transport: serves bytes kept in memory at `mem://store/<name>` URLs.
///
/// It shows what every transport must do: refuse other schemes, send `.response` once before the bytes, stream
/// the bytes in order, stop when the consumer stops or its task is cancelled, and throw `ImagoError`s naming
/// the source.
final class MemoryTransport: ImageTransport {
    let schemes: Set<String> = ["mem"]
    /// Bytes per `.bytes` event.
    let chunkSize: Int
    private let store = Mutex<[String: Data]>([:])

    init(chunkSize: Int = 16 * 1024) {
        self.chunkSize = max(chunkSize, 1)
    }

    /// Keeps `data` and returns the URL it is served at.
    @discardableResult
    func put(_ data: Data, named name: String = UUID().uuidString) -> URL {
        let url = URL(string: "mem://store/\(name)")!
        store.withLock { $0[url.absoluteString] = data }
        return url
    }

    /// The bytes stored at `url`, if any.
    func data(at url: URL) -> Data? { store.withLock { $0[url.absoluteString] } }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let source = request.url.absoluteString
        guard serves(request.url) else {
            return Self.failing(ImagoError(.unsupportedScheme, "unsupported scheme: not mem", source: source))
        }
        guard let data = data(at: request.url) else {
            return Self.failing(ImagoError(.invalidSource, "nothing is stored here", source: source))
        }
        let chunkSize = self.chunkSize
        return AsyncThrowingStream { continuation in
            let producer = Task {
                continuation.yield(.response(TransportMetadata(expectedLength: Int64(data.count))))
                var offset = data.startIndex
                while offset < data.endIndex {
                    // Cancelled by the consumer's task or by `onTermination` below: stop at once.
                    if Task.isCancelled {
                        return continuation.finish(throwing: ImagoError(.cancelled, "cancelled", source: source))
                    }
                    let end = min(offset + chunkSize, data.endIndex)
                    continuation.yield(.bytes(data.subdata(in: offset..<end)))
                    offset = end
                    await Task.yield()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
    }

    private static func failing(_ error: ImagoError) -> AsyncThrowingStream<TransportEvent, any Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
    }
}
