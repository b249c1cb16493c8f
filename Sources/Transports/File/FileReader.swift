import Foundation
import ImagoCore
import Synchronization

/// The state of one file fetch, advanced one event per call by the stream's consumer.
final class FileReader: Sendable {
    private enum Phase {
        case unopened
        case reading(OpenFile, received: Int64)
        /// A file of one chunk, read whole when it was opened (and closed): its bytes are the next event.
        case read(Data)
        case done
    }

    private let url: URL
    private let configuration: FileTransport.Configuration
    private let phase = Mutex(Phase.unopened)

    init(url: URL, configuration: FileTransport.Configuration) {
        self.url = url
        self.configuration = configuration
    }

    deinit {
        // An abandoned fetch still closes its file.
        phase.withLock { phase in
            if case .reading(let file, _) = phase { file.close() }
        }
    }

    /// The next event when it needs no file access (the bytes of a file read whole when opened, or the end):
    /// `.some(nil)` at the end, `nil` when `next()` must be called on the I/O threads.
    func nextReady() -> TransportEvent?? {
        phase.withLock { phase -> TransportEvent?? in
            switch phase {
            case .read(let data):
                phase = .done
                return .some(.bytes(data))
            case .done: return .some(nil)
            case .unopened, .reading: return nil
            }
        }
    }

    /// The next event: the response head, then chunks; `nil` at the end or once the consumer is cancelled.
    func next() throws -> TransportEvent? {
        try phase.withLock { phase in
            do {
                return try advance(&phase)
            } catch {
                end(&phase)
                throw ImagoError.wrapping(error, source: url.absoluteString)
            }
        }
    }

    private func advance(_ phase: inout Phase) throws -> TransportEvent? {
        if Task.isCancelled {
            end(&phase)
            return nil
        }
        switch phase {
        case .unopened:
            let file = try OpenFile(url, root: configuration.root, maxBytes: configuration.maxBytes)
            phase = .reading(file, received: 0)
            let head = TransportMetadata(
                expectedLength: file.size, lastModified: HTTPDate.string(from: file.modified),
                finalURL: URL(fileURLWithPath: file.path, isDirectory: false))
            // A file of one chunk is read with its opening: one trip to the I/O threads for the whole fetch.
            if file.size > 0, file.size <= configuration.chunkSize, case .bytes(let data)? = try advance(&phase) {
                guard case .done = phase else {
                    throw file.error(.transportFailed(status: nil), "truncated: the file shrank while being read")
                }
                phase = .read(data)
            }
            return .response(head)
        case .reading(let file, let received):
            // Never more than the rest of the file (plus the end check below): the buffer is allocated whole.
            let remaining = max(0, file.size - received)
            let chunk = try file.read(upTo: Int(min(Int64(configuration.chunkSize), max(remaining, 1))))
            let total = received + Int64(chunk.count)
            guard !chunk.isEmpty else {
                end(&phase)
                guard received == file.size else {
                    throw file.error(
                        .transportFailed(status: nil),
                        "truncated: the file shrank to \(received) of \(file.size) bytes while being read")
                }
                return nil
            }
            guard total <= file.size else {
                throw file.error(.tooLarge, "too large: the file grew past \(file.size) bytes while being read")
            }
            phase = .reading(file, received: total)
            // The last chunk checks the end at once, so the stream ends without another trip to the I/O threads.
            if total == file.size {
                guard try file.isAtEnd() else {
                    throw file.error(.tooLarge, "too large: the file grew past \(file.size) bytes while being read")
                }
                end(&phase)
            }
            return .bytes(chunk)
        case .read(let data):
            phase = .done
            return .bytes(data)
        case .done:
            return nil
        }
    }

    private func end(_ phase: inout Phase) {
        if case .reading(let file, _) = phase { file.close() }
        phase = .done
    }
}
