import Foundation
import Imago
import Synchronization

/// Counts things by key, safely from many tasks.
final class Counter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func increment(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    func count(_ key: String) -> Int { counts.withLock { $0[key] ?? 0 } }
}

/// A transport that counts its fetches by URL (how many attempts a failed load made), then defers to `base`.
struct CountingTransport: ImageTransport {
    let base: any ImageTransport
    let counter: Counter

    var schemes: Set<String> { base.schemes }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        counter.increment(request.url.absoluteString)
        return base.fetch(request)
    }
}

extension PluginRegistry {
    /// Puts a counting wrapper in front of every transport, keeping their order of precedence.
    func countTransports(with counter: Counter) {
        for transport in transports.reversed() { register(CountingTransport(base: transport, counter: counter)) }
    }
}
