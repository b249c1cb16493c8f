import Foundation
import Imago
import Synchronization

/// Counts things by key, safely from many tasks.
final class Counter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func increment(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }
    func count(_ key: String) -> Int { counts.withLock { $0[key] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    func reset() { counts.withLock { $0.removeAll() } }
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

/// A decoder that counts its decodes, then defers to `base` (to show that coalesced requests decode once).
struct CountingDecoder: ImageDecoder {
    let base: any ImageDecoder
    let counter: Counter

    var format: ImageFormat { base.format }

    func canDecode(_ header: Data) -> Bool { base.canDecode(header) }

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        counter.increment(format.rawValue)
        return try base.decode(data, options: options)
    }
}

extension PluginRegistry {
    /// Puts a counting wrapper in front of every transport, keeping their order of precedence.
    func countTransports(with counter: Counter) {
        for transport in transports.reversed() { register(CountingTransport(base: transport, counter: counter)) }
    }

    /// Puts a counting wrapper in front of every decoder, keeping their order of precedence.
    func countDecoders(with counter: Counter) {
        for decoder in decoders.reversed() { register(CountingDecoder(base: decoder, counter: counter)) }
    }
}
