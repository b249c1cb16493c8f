import ImagoCore

/// Docs/Plugins.md's interceptor: a source that is missing (404) is answered with a placeholder image instead.
struct FallbackInterceptor: ImageInterceptor {
    let placeholder: DecodedImage

    func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
        do {
            return try await chain.proceed()
        } catch let error as ImagoError where error.statusCode == 404 {
            return ImageResponse(image: placeholder, request: chain.request, origin: .interceptor, attempts: 0)
        }
    }
}
