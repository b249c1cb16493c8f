import Foundation
import ImagoCore

/// Reads `file` URLs (the loader turns plain paths into them), in chunks, cancellably.
///
/// Only regular files are read. With a root configured, a path that resolves outside it (through `..` or a
/// symbolic link) is refused before it is opened.
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
        let configuration = configuration
        let url = request.url
        return AsyncThrowingStream { continuation in
            let reading = Task {
                do {
                    try await Self.read(url, configuration: configuration, into: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: ImagoError.wrapping(error, source: url.absoluteString))
                }
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    private static func read(
        _ url: URL, configuration: Configuration,
        into continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation
    ) async throws {
        let file = try OpenFile(url, root: configuration.root, maxBytes: configuration.maxBytes)
        defer { file.close() }
        continuation.yield(
            .response(TransportMetadata(expectedLength: file.size, finalURL: URL(fileURLWithPath: file.path))))
        var received: Int64 = 0
        while true {
            try Task.checkCancellation()
            let chunk = try file.read(upTo: configuration.chunkSize)
            if chunk.isEmpty { break }
            received += Int64(chunk.count)
            guard received <= file.size else {
                throw file.error(.tooLarge, "too large: the file grew past \(file.size) bytes while being read")
            }
            continuation.yield(.bytes(chunk))
            // Lets other work run between chunks of a large file, and a cancellation land.
            await Task.yield()
        }
        guard received == file.size else {
            throw file.error(
                .transportFailed(status: nil),
                "truncated: the file shrank to \(received) of \(file.size) bytes while being read")
        }
    }
}
