import Foundation
import Synchronization

/// Progressive previews: an image shown while its bytes are still arriving. They come from the one request flow
/// (`ImageLoader+Pipeline`): these calls only ask it for previews and hand them on.
extension ImageLoader {
    /// Loads `request`, yielding previews (`isPreview`) while the bytes arrive, then the final response; the
    /// sequence ends after the final one, or throws `ImagoError` (`cancelled` when the consuming task is
    /// cancelled before the final one). Ending the iteration cancels the load.
    ///
    /// Previews come from an incremental decoder (progressive JPEG scans, Adam7 PNG passes) fed with the
    /// fetch's chunks, decoding with the one-shot decoder's parameters: the final image is the plain load's, pixel
    /// for pixel, and when the decoder saw every byte it is finished instead of decoding the bytes again. Previews
    /// go through the request's orientation and processors (so they have the final image's size), are throttled
    /// by `policy`, and are never cached. A memory or data-cache hit, or bytes that arrive all at once, give no
    /// preview. Identical requests still share one load: those that did not ask for previews pay nothing for them;
    /// a request that joins a load started without previews gets the final image only.
    public func responses(
        for request: ImageRequest, previews policy: PreviewPolicy = PreviewPolicy(),
        progress: (@Sendable (FetchProgress) -> Void)? = nil
    ) -> ImageResponses {
        // The newest response wins when the consumer lags: a stale preview is worth nothing, the final is last.
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ImageResponse.self, bufferingPolicy: .bufferingNewest(1))
        let finished = Mutex(false)
        let task = Task {
            do {
                let response = try await self.image(for: request, previews: policy, progress: progress) { preview in
                    finished.withLock { done in if !done { continuation.yield(preview) } }
                }
                finished.withLock { done in
                    done = true
                    continuation.yield(response)
                }
                continuation.finish()
            } catch {
                finished.withLock { $0 = true }
                continuation.finish(throwing: ImagoError.wrapping(error, source: request.sourceString))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return ImageResponses(stream: stream, source: request.sourceString)
    }

    /// Loads `request`, calling `onPreview` with each preview before returning the final response.
    public func image(
        for request: ImageRequest, previews policy: PreviewPolicy,
        progress: (@Sendable (FetchProgress) -> Void)? = nil,
        onPreview: @escaping @Sendable (ImageResponse) -> Void
    ) async throws -> ImageResponse {
        let sink = LoadEventSink.load(Self.nextLoadID(), request, listeners: eventListeners, progress: progress)
        return try await load(
            request, priority: PriorityBox(request.priority), sink: sink,
            previews: PreviewListener(policy: policy, onPreview: onPreview))
    }

    /// Previews made, finals taken from incremental decoders, and incremental decoders alive (for tests and
    /// benchmarks: a cancelled load must leave none).
    public var previewStatistics: PreviewStatistics {
        PreviewStatistics(
            previews: previewHub.previewsMade.load(ordering: .relaxed),
            incrementalFinals: previewHub.incrementalFinals.load(ordering: .relaxed),
            liveDecoders: previewHub.liveSessions.load(ordering: .relaxed))
    }
}

/// A caller's wish for previews: how often, and where they go.
struct PreviewListener: Sendable {
    var policy: PreviewPolicy
    var onPreview: @Sendable (ImageResponse) -> Void
}

/// The responses of a load with previews (`ImageLoader.responses(for:previews:)`): previews, then the final
/// response, or an error. Unlike a bare stream, it never ends quietly: a consumer cancelled before the final
/// response gets `cancelled` thrown.
public struct ImageResponses: AsyncSequence, Sendable {
    public typealias Element = ImageResponse
    let stream: AsyncThrowingStream<ImageResponse, any Error>
    let source: String

    /// Iterates the responses.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ImageResponse, any Error>.AsyncIterator
        let source: String
        var isDone = false

        public mutating func next() async throws -> ImageResponse? {
            guard !isDone else { return nil }
            guard let response = try await base.next() else {
                // The stream ends without its final response only when the consumer was cancelled.
                isDone = true
                throw ImagoError(.cancelled, "cancelled", source: source)
            }
            if !response.isPreview { isDone = true }
            return response
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), source: source)
    }
}

/// What the loader's previews have cost so far.
public struct PreviewStatistics: Sendable, Hashable {
    /// Previews rendered (and processed) in all.
    public var previews: Int
    /// Final images taken from an incremental decoder instead of a second, one-shot decode.
    public var incrementalFinals: Int
    /// Incremental decoders holding buffers now.
    public var liveDecoders: Int
}
