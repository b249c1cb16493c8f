import Foundation
import ImagoCore
import Synchronization

/// The state of one file fetch, advanced one event per call by the stream's consumer.
final class FileReader: Sendable {
    private enum Phase {
        case unopened
        case reading(OpenFile, received: Int64)
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
            return .response(TransportMetadata(expectedLength: file.size, finalURL: URL(fileURLWithPath: file.path)))
        case .reading(let file, let received):
            let chunk = try file.read(upTo: configuration.chunkSize)
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
            return .bytes(chunk)
        case .done:
            return nil
        }
    }

    private func end(_ phase: inout Phase) {
        if case .reading(let file, _) = phase { file.close() }
        phase = .done
    }
}
