/// Wraps every load of a loader, as Coil's interceptors do: it sees the request and may change it, answer it
/// without the network (a placeholder, a test fixture, an offline store), retry or reject it, and observe the
/// result. Add one with `PluginRegistry.Builder.add(_:)`.
///
/// A load asks the memory cache first; on a miss it runs the interceptors in the order they were added, and the
/// last one's `proceed` runs the loader's own stages (data cache, fetch, decode, process, store). Cancelling the
/// load cancels `proceed`, which then throws `cancelled`: an interceptor lets that error through.
///
/// ```swift
/// struct OfflineInterceptor: ImageInterceptor {
///     let shelf: [URL: DecodedImage]
///     func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
///         do {
///             return try await chain.proceed()
///         } catch let error as ImagoError where error.kind != .cancelled {
///             guard let image = shelf[chain.request.url] else { throw error }
///             return ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
///         }
///     }
/// }
/// ```
public protocol ImageInterceptor: Sendable {
    /// Answers `chain.request`, usually by calling `chain.proceed(_:)` (with the request or a changed one).
    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse
}

/// One load's place in the interceptor chain: the request as it stands, and the way on to the next link.
public struct ImageInterceptorChain: Sendable {
    /// The request, as the interceptors before this one left it.
    public let request: ImageRequest
    let interceptors: [any ImageInterceptor]
    let index: Int
    let stages: @Sendable (ImageRequest) async throws -> ImageResponse

    init(
        request: ImageRequest, interceptors: [any ImageInterceptor], index: Int = 0,
        stages: @escaping @Sendable (ImageRequest) async throws -> ImageResponse
    ) {
        self.request = request
        self.interceptors = interceptors
        self.index = index
        self.stages = stages
    }

    /// Passes `request` to the next interceptor, or to the loader's stages after the last one. Throws
    /// `ImagoError` `cancelled` when the load is cancelled, as the stages do.
    public func proceed(_ request: ImageRequest) async throws -> ImageResponse {
        try Self.checkCancellation(request)
        guard index < interceptors.count else { return try await stages(request) }
        let next = ImageInterceptorChain(request: request, interceptors: interceptors, index: index + 1, stages: stages)
        return try await interceptors[index].intercept(next)
    }

    /// Passes the request on unchanged.
    public func proceed() async throws -> ImageResponse { try await proceed(request) }

    /// Throws `cancelled` naming `request`'s source when the current task is cancelled.
    static func checkCancellation(_ request: ImageRequest) throws {
        if Task.isCancelled { throw ImagoError(.cancelled, "cancelled", source: request.sourceString) }
    }
}
