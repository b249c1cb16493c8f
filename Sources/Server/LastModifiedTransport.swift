import Foundation
import Imago
import Synchronization

/// The `Last-Modified` of the sources fetched, by URL, so the server can pass it on. The loader's response does not
/// carry the transport's metadata, so the server's loader wraps every transport in a `LastModifiedTransport`
/// that records it here (a file's modification time for `file:` sources).
final class LastModifiedLog: Sendable {
    private let entries = Mutex<[String: String]>([:])
    /// Most URLs remembered; beyond it the log starts again (a missing entry only means no `Last-Modified`).
    static let capacity = 10_000

    func record(_ value: String, for url: URL) {
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[url.absoluteString] = value
        }
    }

    func value(for url: URL) -> String? { entries.withLock { $0[url.absoluteString] } }

    /// The log of the `LastModifiedTransport`s in `registry`, if it has any.
    static func log(in registry: PluginRegistry) -> LastModifiedLog? {
        registry.transports.lazy.compactMap { ($0 as? LastModifiedTransport)?.log }.first
    }
}

/// A transport that passes everything through and records the response's `Last-Modified`.
struct LastModifiedTransport: ImageTransport {
    let inner: any ImageTransport
    let log: LastModifiedLog

    var schemes: Set<String> { inner.schemes }
    var cachePolicy: (any TransportCachePolicy)? { inner.cachePolicy }

    func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let stream = inner.fetch(request)
        let log = self.log
        let url = request.url
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in stream {
                        if case .response(let metadata) = event, (metadata.statusCode ?? 200) < 300 {
                            if let value = metadata.lastModified ?? Self.fileModificationDate(url) {
                                log.record(value, for: url)
                            }
                        }
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A `file:` source's modification time as an HTTP date.
    static func fileModificationDate(_ url: URL) -> String? {
        guard url.isFileURL,
            let date = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        else { return nil }
        return HTTPDate.string(from: date)
    }

    /// `registry` with every transport wrapped, recording into `log`.
    static func wrapping(_ registry: PluginRegistry, log: LastModifiedLog) -> PluginRegistry {
        var builder = PluginRegistry.Builder(registry)
        for transport in registry.transports.reversed() where !(transport is LastModifiedTransport) {
            builder.register(LastModifiedTransport(inner: transport, log: log))
        }
        return builder.build()
    }
}
