import Foundation
import ImagoCore
import Testing

@testable import ImagoCurl
@testable import ImagoTransports

/// The libcurl transport's thread and addresses, seen from inside the module.
@Suite(.loopbackServer)
struct CurlTransportLifecycleTests {
    @Test func aReleasedTransportsThreadEndsAfterItsLastFetch() async throws {
        weak var multi: CurlMulti?
        do {
            let transport = CurlTransport()
            multi = transport.multi
            let fetched = try await transport.fetchAll(TransportRequest(url: try loopback().url("/bytes?n=100")))
            #expect(fetched.data == expectedBody(100))
        }
        // The loop's thread holds its multi handle until it has cleaned it up and ended.
        for _ in 0..<200 where multi != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(multi == nil)
    }

    @Test func theConnectionFilterSeesIPv6Addresses() async throws {
        let seen = LockedValue<[ConnectionAddress]>([])
        let transport = CurlTransport { address in
            seen.withLock { $0.append(address) }
            return false
        }
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: URL(string: "http://[::1]:1/a.png")!)))
        #expect(recording.imagoError?.kind == .addressRefused)
        #expect(recording.imagoError?.reason.hasPrefix("refused to connect to [::1]:1") == true)
        #expect(seen.withLock { $0 } == [ConnectionAddress(host: "::1", ip: "::1", port: 1, isIPv6: true)])
    }
}
