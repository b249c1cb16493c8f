import Foundation
import ImagoCore

/// Serves `data` for any URL of its scheme: the first `split` bytes (in 16 KiB chunks), then it waits for `gate`
/// before the rest, a transfer that stalls at a byte the test chooses.
public struct PausingTransport: ImageTransport {
    public let data: Data
    public let split: Int
    public let gate: AsyncGate
    public let schemes: Set<String>

    public init(data: Data, split: Int, gate: AsyncGate, scheme: String = "pausing") {
        self.data = data
        self.split = split
        self.gate = gate
        self.schemes = [scheme]
    }

    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let (data, split, gate) = (data, split, gate)
        return AsyncThrowingStream { continuation in
            let task = Task {
                continuation.yield(.response(TransportMetadata(statusCode: 200, expectedLength: Int64(data.count))))
                var offset = 0
                while offset < split {
                    let end = min(split, offset + 16384)
                    continuation.yield(.bytes(data.subdata(in: offset..<end)))
                    offset = end
                }
                await gate.wait()
                if Task.isCancelled { return continuation.finish(throwing: CancellationError()) }
                continuation.yield(.bytes(data.subdata(in: split..<data.count)))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
