/// A load in flight that can be cancelled and watched.
///
/// Created by `ImageLoader.task(for:)`; the load starts at once. `cancel()` answers `response` with
/// `cancelled` at once; the shared work stops when no other caller waits for it.
public final class ImageTask: Sendable {
    /// The request loaded.
    public let request: ImageRequest
    /// Bytes received and expected, as they arrive; finishes when the load ends.
    public let progress: AsyncStream<FetchProgress>
    private let task: Task<ImageResponse, any Error>
    private let priorityBox: PriorityBox

    /// How urgently the image is wanted; raising it moves a queued load ahead.
    public var priority: ImagePriority {
        get { priorityBox.currentPriority }
        set { priorityBox.currentPriority = newValue }
    }

    init(request: ImageRequest, loader: ImageLoader) {
        self.request = request
        let (stream, continuation) = AsyncStream.makeStream(
            of: FetchProgress.self, bufferingPolicy: .bufferingNewest(64))
        self.progress = stream
        let priorityBox = PriorityBox(request.priority)
        self.priorityBox = priorityBox
        self.task = Task {
            defer { continuation.finish() }
            return try await loader.image(for: request, priority: priorityBox, listener: nil) {
                continuation.yield($0)
            }
        }
    }

    /// The response, once the load ends; throws `ImagoError`.
    public var response: ImageResponse {
        get async throws {
            do {
                return try await task.value
            } catch {
                throw ImagoError.wrapping(error, source: request.sourceString)
            }
        }
    }

    /// Cancels this load.
    public func cancel() { task.cancel() }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { task.isCancelled }
}
