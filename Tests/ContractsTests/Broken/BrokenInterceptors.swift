import Foundation
import ImagoCore

/// Interceptors that each break one promise of the interceptor contract.
enum BrokenInterceptors {
    /// Answers every failure with a placeholder, cancellation included: a cancelled load never ends as cancelled.
    struct SwallowsCancellation: ImageInterceptor {
        func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
            do {
                return try await chain.proceed()
            } catch {
                let image = DecodedImage(raster: try Raster(width: 1, height: 1, fill: RGBA(0, 0, 0)), format: .png)
                return ImageResponse(image: image, request: chain.request, origin: .interceptor, attempts: 0)
            }
        }
    }

    /// Passes every load on twice (a second, "warming" load it throws away).
    struct ProceedsTwice: ImageInterceptor {
        func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
            _ = try? await chain.proceed()
            return try await chain.proceed()
        }
    }

    /// Turns downstream failures into an error of its own type.
    struct ThrowsForeignErrors: ImageInterceptor {
        struct Failed: Error {}
        func intercept(_ chain: ImageInterceptorChain) async throws -> ImageResponse {
            do { return try await chain.proceed() } catch { throw Failed() }
        }
    }
}
