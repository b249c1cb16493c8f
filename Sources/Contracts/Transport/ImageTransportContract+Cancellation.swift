import Foundation
import ImagoCore
import Synchronization

extension ImageTransportContract {
    /// Cancels fetches of a large body: one from outside while the consumer waits for bytes after the first
    /// chunk, one before it starts. Either way the stream must end (finish, or throw `cancelled`) before the
    /// deadline, which catches a transport waiting in a call that cancellation cannot interrupt. With
    /// `producedBytes`, the producer is watched too: after the consumer has left it must stop producing.
    func stopsWhenCancelled() async throws {
        let payload = Self.payload(cancellationPayloadSize, seed: 4)
        let url = try await served(payload)
        for cancelsEarly in [false, true] {
            let what = cancelsEarly ? "a fetch cancelled before it started" : "a fetch cancelled after its first bytes"
            let received = Mutex(0)
            let firstBytes = AsyncStream<Void>.makeStream()
            let transport = self.transport
            let consumer = Task { () async -> (any Error)? in
                defer { firstBytes.continuation.finish() }
                do {
                    for try await event in transport.fetch(TransportRequest(url: url)) {
                        guard case .bytes(let chunk) = event else { continue }
                        received.withLock { $0 += chunk.count }
                        firstBytes.continuation.yield()
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if cancelsEarly { consumer.cancel() }
            let outcome: (any Error)?
            do {
                outcome = try await Deadline.run(seconds: cancellationDeadline) {
                    for await _ in firstBytes.stream { break }
                    // Give the consumer a moment to wait inside the stream, so the cancellation lands there.
                    try? await Task.sleep(nanoseconds: 50_000_000)
                    consumer.cancel()
                    return await consumer.value
                }
            } catch {
                consumer.cancel()
                let count = received.withLock { $0 }
                throw ContractFailure(
                    "\(what) was still going after \(Int(cancellationDeadline)) s "
                        + "(\(count) of \(payload.count) bytes delivered)")
            }
            if let outcome, !Self.isCancellation(outcome) {
                throw ContractFailure("\(what) ended with \(Describe.error(outcome)), expected cancelled or a finish")
            }
            try await producerStopped(url, payload: payload, what: what)
        }
    }

    /// Production may finish what was in flight when the consumer left; then the count must stand still.
    private func producerStopped(_ url: URL, payload: Data, what: String) async throws {
        guard let producedBytes else { return }
        try? await Task.sleep(nanoseconds: 300_000_000)
        let settled = await producedBytes(url)
        try? await Task.sleep(nanoseconds: 700_000_000)
        let later = await producedBytes(url)
        guard later > settled else { return }
        throw ContractFailure(
            "\(what): the producer kept producing after the consumer left (\(later - settled) more bytes in 0.7 s, "
                + "\(later) of \(payload.count) in all)")
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? ImagoError)?.kind == .cancelled
    }
}
