import Foundation
import Imago
import Synchronization

/// One request's context, passed through the handler chain (`ImageServer+Chain.swift`): the request, its number
/// and its deadline (`serve.requestTimeout` from the request line). Cancellation is its task's: a client that
/// leaves, or the deadline, cancels the request's work (shared work goes on for the others that wait for it).
final class RequestContext: Sendable {
    /// The request as received.
    let request: HTTPRequest
    /// A number no other request of this process has had.
    let id: UInt64
    /// When the whole request must have been answered.
    let deadline: ContinuousClock.Instant
    private static let ids = Atomic<UInt64>(0)

    init(_ request: HTTPRequest, timeout: Double) {
        self.request = request
        id = Self.ids.wrappingAdd(1, ordering: .relaxed).newValue
        deadline = request.start.advanced(by: .milliseconds(Int((timeout * 1000).rounded())))
    }

    /// What running out of time means: 503 while the request still waited (nothing was done for it; another
    /// instance may answer), 504 once its work had `began` (it held a processing slot).
    func timeout(began: Bool) -> RequestError {
        began
            ? RequestError(.timedOut, "the request took longer than serve.requestTimeout")
            : RequestError(.timedOutWaiting, "the request waited longer than serve.requestTimeout for a slot")
    }
}
