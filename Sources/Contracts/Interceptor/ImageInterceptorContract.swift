import Foundation
import ImagoCore

/// The promises of an `ImageInterceptor`: it runs in its place in the chain, passes a load on at most as often as
/// it says, lets cancellation and downstream errors through typed, and serves concurrent loads; and, when the test
/// says what to expect, ends a load as expected.
///
/// The checks run real loads through an `ImageLoader` whose chain is a probe, the interceptor, another probe, then
/// the loader's stages over a small in-memory source: what they answer a request the interceptor passes on is the
/// test's choice (`downstream`), so a fallback for a missing source or a rewrite to another host really runs.
///
/// ```swift
/// let contract = ImageInterceptorContract(
///     makeInterceptor: { FallbackInterceptor(placeholder: placeholder) },
///     downstream: { _ in .status(404) }, expecting: .image(origin: .interceptor))
/// try await contract.verify()
/// ```
public struct ImageInterceptorContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case keepsItsPlace = "runs inside the interceptors before it and outside those after it"
        case proceedsAtMostAsDeclared = "passes a load on at most maxProceedsPerLoad times, or answers it itself"
        case letsCancellationThrough = "lets a cancellation through, without passing the load on again"
        case letsErrorsThroughTyped = "ends a load that failed downstream with an ImagoError or an answer"
        case servesConcurrentLoads = "serves concurrent loads"
        case endsAsExpected = "ends a load as the test expects, given what downstream answers"
    }

    let makeInterceptor: @Sendable () throws -> any ImageInterceptor
    let request: ImageRequest
    let maxProceedsPerLoad: Int
    let downstream: @Sendable (ImageRequest) -> InterceptorDownstream
    let expected: InterceptorOutcome?

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeInterceptor: makes the interceptor under test; called once per check.
    ///   - request: the request loaded; by default `contract://image`. The rig serves `contract`, `http` and
    ///     `https` URLs (nothing leaves the process); a request of another scheme must be one the interceptor
    ///     answers itself, or one `downstream` fails.
    ///   - maxProceedsPerLoad: how often one load may pass the request on (1 for most; more for one that retries).
    ///   - downstream: what the rest of the chain answers a request the interceptor passed on, as it left it: an
    ///     image (the default) or a failure (`.status(404)` for a missing source).
    ///   - expecting: how a load through the interceptor ends, given `downstream`; `nil` skips `endsAsExpected`.
    public init(
        makeInterceptor: @escaping @Sendable () throws -> any ImageInterceptor,
        request: ImageRequest = ImageRequest(url: URL(string: "contract://image")!), maxProceedsPerLoad: Int = 1,
        downstream: @escaping @Sendable (ImageRequest) -> InterceptorDownstream = { _ in .image },
        expecting expected: InterceptorOutcome? = nil
    ) {
        self.makeInterceptor = makeInterceptor
        self.request = request
        self.maxProceedsPerLoad = maxProceedsPerLoad
        self.downstream = downstream
        self.expected = expected
    }

    public var title: String {
        let name = (try? makeInterceptor()).map { String(describing: type(of: $0)) } ?? "?"
        return "ImageInterceptor contract (\(name))"
    }

    public var checks: [ContractCheck] {
        [
            check(.keepsItsPlace) { try await $0.keepsItsPlace() },
            check(.proceedsAtMostAsDeclared) { try await $0.proceedsAtMostAsDeclared() },
            check(.letsCancellationThrough) { try await $0.letsCancellationThrough() },
            check(.letsErrorsThroughTyped) { try await $0.letsErrorsThroughTyped() },
            check(.servesConcurrentLoads) { try await $0.servesConcurrentLoads() },
        ] + (expected == nil ? [] : [check(.endsAsExpected) { try await $0.endsAsExpected() }])
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self) async throws -> Void) -> ContractCheck {
        ContractCheck(name.rawValue) { try await body(self) }
    }
}

/// What the rest of an interceptor contract's chain answers a request passed on to it.
public enum InterceptorDownstream: Sendable {
    /// A 4×3 grey image, fetched and decoded by the loader's stages (origin `network`).
    case image
    /// A failure, as a transport would report it.
    case failure(ImagoError)

    /// An HTTP failure status, as transports report it: `.status(404)` for a missing source.
    public static func status(_ code: Int) -> InterceptorDownstream {
        .failure(ImagoError(.transportFailed(status: code), "status \(code)"))
    }
}

/// How a load through the interceptor under test ends.
public enum InterceptorOutcome: Sendable, Equatable, CustomStringConvertible {
    /// An image, from `origin` (`.interceptor` for the interceptor's own answer, `.network` for downstream's).
    case image(origin: ImageOrigin)
    /// An `ImagoError` of `kind`.
    case failure(ImagoError.Kind)

    public var description: String {
        switch self {
        case .image(let origin): "an image (origin \(origin))"
        case .failure(let kind): "ImagoError.\(kind.name)"
        }
    }
}
