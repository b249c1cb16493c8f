import Foundation
import ImagoCore
import Synchronization

extension ImageTransportContract {
    /// Cancels a fetch of a large body twice: once after its first bytes, once before it starts. Either way the
    /// stream must end (finish, or throw `cancelled`) before the deadline.
    func stopsWhenCancelled() async throws {
        let payload = Self.payload(cancellationPayloadSize, seed: 4)
        let url = try await served(payload)
        let transport = self.transport
        for cancelsEarly in [false, true] {
            let what = cancelsEarly ? "a fetch cancelled before it started" : "a fetch cancelled after its first bytes"
            let received = Mutex(0)
            let outcome: (any Error)?
            do {
                outcome = try await Deadline.run(seconds: cancellationDeadline) { () async -> (any Error)? in
                    do {
                        if cancelsEarly { withUnsafeCurrentTask { $0?.cancel() } }
                        for try await event in transport.fetch(TransportRequest(url: url)) {
                            guard case .bytes(let chunk) = event else { continue }
                            let total = received.withLock { count in
                                count += chunk.count
                                return count
                            }
                            if total == chunk.count { withUnsafeCurrentTask { $0?.cancel() } }
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            } catch {
                let count = received.withLock { $0 }
                throw ContractFailure(
                    "\(what) was still going after \(Int(cancellationDeadline)) s (\(count) of \(payload.count) bytes delivered)")
            }
            if let outcome, !Self.isCancellation(outcome) {
                throw ContractFailure("\(what) ended with \(Describe.error(outcome)), expected cancelled or a finish")
            }
        }
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? ImagoError)?.kind == .cancelled
    }
}
