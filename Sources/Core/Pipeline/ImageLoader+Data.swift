import Foundation

/// The encoded bytes alone, and decoding bytes already read.
extension ImageLoader {
    /// A source's encoded bytes as this loader read them (from the data cache or the transport), to look at them
    /// and then decode them with `image(for:from:)` without reading the source again.
    public struct SourceBytes: Sendable {
        let fetched: FetchedBytes

        /// The encoded bytes.
        public var data: Data { fetched.data }
        /// Where they came from: `dataCache` or `network`.
        public var origin: ImageOrigin { fetched.origin }
        /// The source's `Last-Modified`, when the transport or the data-cache entry knows it.
        public var lastModified: String? { fetched.lastModified }
    }

    /// The encoded bytes of `request`'s source, through the data cache and the transport (with retries), shared
    /// with the loads of the same source in flight; nothing is decoded. Throws `ImagoError`.
    public func data(for request: ImageRequest) async throws -> Data {
        try await sourceBytes(for: request).data
    }

    /// `data(for:)` with where the bytes came from, for `image(for:from:)`.
    public func sourceBytes(for request: ImageRequest) async throws -> SourceBytes {
        do {
            return SourceBytes(
                fetched: try await fetchTasks.value(
                    for: FetchWorkKey(request), priority: PriorityBox(request.priority)
                ) { work in
                    try await self.fetchBytes(request, work: work)
                })
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString)
        }
    }

    /// Loads `request` as `image(for:)` does (memory cache, interceptors, decode, processors, caches), decoding
    /// `bytes` (read for a request of the same source) instead of reading the source again; `listener`, when
    /// given, hears about the load besides the loader's own listeners.
    public func image(
        for request: ImageRequest, from bytes: SourceBytes, listener: (any ImageLoadEventListener)? = nil
    ) async throws -> ImageResponse {
        let listeners = listener.map { eventListeners + [$0] } ?? eventListeners
        let sink = LoadEventSink.load(Self.nextLoadID(), request, listeners: listeners, progress: nil)
        return try await load(request, priority: PriorityBox(request.priority), sink: sink, bytes: bytes.fetched)
    }
}
