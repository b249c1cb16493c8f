import Foundation
import ImagoCore

/// Reads `file` URLs (the loader turns plain paths into them), in chunks, cancellably.
///
/// Only regular files are read. With a root configured, a path that resolves outside it (through `..` or a
/// symbolic link) is refused before it is opened. Reading is paced by the consumer: each chunk is read when the
/// stream is asked for it, so a cancelled or abandoned fetch reads nothing more. A file of one chunk is read with
/// its opening, in a single trip to the I/O threads.
public struct FileTransport: ImageTransport {
    /// The settings this transport was made with.
    public let configuration: Configuration

    /// Creates a transport.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `file`.
    public var schemes: Set<String> { ["file"] }

    /// Reads the file at `request.url`: `.response` with its size first, then its bytes in chunks.
    public func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        var configuration = configuration
        configuration.maxBytes = min(configuration.maxBytes, request.limits.maxBytes)  // the loader's cap, if lower
        let reader = FileReader(url: request.url, configuration: configuration)
        // Opening and reading block: they run on the I/O threads, never on the cooperative pool. A fetch
        // cancelled before its next read ends quietly, as a read that sees the cancellation does.
        return AsyncThrowingStream(unfolding: {
            if let ready = reader.nextReady() { return ready }
            do {
                return try await WorkExecutor.io.run { try reader.next() }
            } catch is CancellationError {
                return nil
            }
        })
    }
}
