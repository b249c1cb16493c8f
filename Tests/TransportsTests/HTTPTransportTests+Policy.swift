import Foundation
import ImagoCore
import ImagoTransports
import Testing

extension HTTPTransportTests {
    /// Refuses paths under `/echo` and, when `refuseLoopback`, every 127.x address.
    struct TestPolicy: SourceAccessPolicy {
        var refuseLoopback = false
        func check(_ url: URL) throws -> URL {
            let normalised = try SourceURL.normalized(url)
            guard !normalised.path.hasPrefix("/echo") else {
                throw ImagoError(.addressRefused, "not in the allow-list", source: url.absoluteString)
            }
            return normalised
        }
        func allowsConnection(to ip: String) -> Bool { !(refuseLoopback && ip.hasPrefix("127.")) }
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func everyRedirectHopPassesTheLoadersPolicy(_ kind: HTTPTransportKind) async throws {
        let server = try loopback()
        let limits = FetchLimits(policy: TestPolicy())
        let refused = TransportRequest(url: server.url("/redirect-to?location=/echo"), limits: limits)
        let error = await #expect(throws: ImagoError.self) { try await kind.make().fetchAll(refused) }
        #expect(error?.kind == .addressRefused, "\(String(describing: error))")
        // A hop whose dots lead back into the allowed part is followed, normalised.
        let allowed = TransportRequest(url: server.url("/redirect-to?location=/echo/../bytes%3Fn%3D10"), limits: limits)
        let fetched = try await kind.make().fetchAll(allowed)
        #expect(fetched.data.count == 10)
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func addressesThePolicyRefusesAreNeverConnectedTo(_ kind: HTTPTransportKind) async throws {
        let server = try loopback()
        let request = TransportRequest(
            url: server.url("/bytes?n=10"), limits: FetchLimits(policy: TestPolicy(refuseLoopback: true)))
        let error = await #expect(throws: ImagoError.self) { try await kind.make().fetchAll(request) }
        #expect(error?.kind == .addressRefused, "\(String(describing: error))")
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func theLoadersCapAndDeadlineNarrowTheTransports(_ kind: HTTPTransportKind) async throws {
        let server = try loopback()
        let capped = TransportRequest(url: server.url("/bytes?n=5000"), limits: FetchLimits(maxBytes: 1000))
        let tooLarge = await #expect(throws: ImagoError.self) { try await kind.make().fetch(capped).drain() }
        #expect(tooLarge?.kind == .tooLarge)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(300))
        let slow = TransportRequest(url: server.url("/hang"), limits: FetchLimits(deadline: deadline))
        let timedOut = await #expect(throws: ImagoError.self) { try await kind.make().fetch(slow).drain() }
        #expect(timedOut?.kind == .timedOut)
        // The loader's deadline, not the transport's own 30 s idle timeout, ended it.
        #expect(timedOut?.reason.contains("total deadline") == true, "\(String(describing: timedOut))")
    }
}

extension AsyncThrowingStream where Element == TransportEvent, Failure == any Error {
    /// Reads every event, throwing what the stream throws.
    func drain() async throws {
        for try await _ in self {}
    }
}
