import Foundation
import ImagoCore

/// The promises of an `ImageInterceptor`: it runs in its place in the chain, passes a load on at most as often as
/// it says, lets cancellation and downstream errors through typed, and serves concurrent loads.
///
/// The checks run real loads through an `ImageLoader` whose chain is a probe, the interceptor, another probe, then
/// the loader's stages over a small in-memory source (`contract://image`).
///
/// ```swift
/// let contract = ImageInterceptorContract(makeInterceptor: { HeaderInterceptor(token: "t") })
/// let report = await contract.run()
/// #expect(report.passed, "\(report)")
/// ```
public struct ImageInterceptorContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case keepsItsPlace = "runs inside the interceptors before it and outside those after it"
        case proceedsAtMostAsDeclared = "passes a load on at most maxProceedsPerLoad times, or answers it itself"
        case letsCancellationThrough = "lets a cancellation through, without passing the load on again"
        case letsErrorsThroughTyped = "ends a load that failed downstream with an ImagoError or an answer"
        case servesConcurrentLoads = "serves concurrent loads"
    }

    let makeInterceptor: @Sendable () throws -> any ImageInterceptor
    let request: ImageRequest
    let maxProceedsPerLoad: Int

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeInterceptor: makes the interceptor under test; called once per check.
    ///   - request: the request loaded; by default `contract://image`, which the contract's own transport serves
    ///     (a request elsewhere must be one the interceptor answers itself).
    ///   - maxProceedsPerLoad: how often one load may pass the request on (1 for most; more for one that retries).
    public init(
        makeInterceptor: @escaping @Sendable () throws -> any ImageInterceptor,
        request: ImageRequest = ImageRequest(url: URL(string: "contract://image")!), maxProceedsPerLoad: Int = 1
    ) {
        self.makeInterceptor = makeInterceptor
        self.request = request
        self.maxProceedsPerLoad = maxProceedsPerLoad
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
        ]
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (Self) async throws -> Void) -> ContractCheck {
        ContractCheck(name.rawValue) { try await body(self) }
    }
}
