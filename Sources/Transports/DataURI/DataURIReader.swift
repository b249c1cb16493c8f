import Foundation
import ImagoCore
import Synchronization

/// One `data:` fetch, advanced one event per call by the stream's consumer: it decodes on the first call.
final class DataURIReader: Sendable {
    private enum Phase {
        case undecoded
        case delivering(Data, offset: Int)
        case done
    }

    private let source: String
    private let maxBytes: Int
    private let phase = Mutex(Phase.undecoded)

    init(source: String, maxBytes: Int) {
        self.source = source
        self.maxBytes = maxBytes
    }

    /// The next event: the response head, then chunks; `nil` at the end or once the consumer is cancelled.
    func next() throws -> TransportEvent? {
        try phase.withLock { phase in
            if Task.isCancelled { phase = .done }
            switch phase {
            case .undecoded:
                do {
                    let uri = try DataURI(source, maxBytes: maxBytes)
                    phase = .delivering(uri.data, offset: 0)
                    let metadata = TransportMetadata(
                        expectedLength: Int64(uri.data.count), contentType: uri.contentType)
                    return .response(metadata)
                } catch {
                    phase = .done
                    throw ImagoError.wrapping(error, source: source)
                }
            case .delivering(let data, let offset):
                guard offset < data.count else {
                    phase = .done
                    return nil
                }
                let end = min(offset + DataURITransport.chunkSize, data.count)
                phase = .delivering(data, offset: end)
                // A copy when split, so every chunk is indexed from zero like any other `Data`.
                return .bytes(offset == 0 && end == data.count ? data : data.subdata(in: offset..<end))
            case .done:
                return nil
            }
        }
    }
}
