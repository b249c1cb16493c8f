import Foundation
import ImagoCore
import Testing

/// Everything a fetch produced, in order, for assertions on the event contract.
struct TransportRecording {
    /// `"response"` and `"bytes"`, in the order the events came.
    var events: [String] = []
    var metadata: [TransportMetadata] = []
    var chunks: [Data] = []
    /// The error the stream ended with, if any.
    var error: (any Error)?

    var body: Data { chunks.reduce(into: Data()) { $0.append($1) } }
    var imagoError: ImagoError? { error as? ImagoError }

    /// Iterates `stream` to its end, recording every event and the final error.
    static func record(_ stream: AsyncThrowingStream<TransportEvent, any Error>) async -> TransportRecording {
        var recording = TransportRecording()
        do {
            for try await event in stream {
                switch event {
                case .response(let metadata):
                    recording.events.append("response")
                    recording.metadata.append(metadata)
                case .bytes(let data):
                    recording.events.append("bytes")
                    recording.chunks.append(data)
                }
            }
        } catch {
            recording.error = error
        }
        return recording
    }

    /// Whether the contract held: one `.response` first, then only bytes.
    var followsEventContract: Bool {
        events.first == "response" && events.dropFirst().allSatisfy { $0 == "bytes" }
    }
}

/// The bytes the loopback server serves for `n`: `i % 251`, a pattern that shows reordering and loss.
func expectedBody(_ count: Int) -> Data {
    var body = Data(capacity: count + 251)
    while body.count < count { body.append(bodyPattern) }
    return body.prefix(count)
}

private let bodyPattern = Data((0..<251).map { UInt8($0) })

/// The loopback server of the running suite.
func loopback() throws -> LoopbackServer {
    try #require(LoopbackServer.current, "the suite needs the .loopbackServer trait")
}
