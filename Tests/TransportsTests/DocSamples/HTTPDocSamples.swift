import Foundation
import ImagoTransports
import Testing

// The Swift sample of Docs/HTTP.md, verbatim (DocSamplesTests checks it is here).

@Test func theHTTPConnectionFilterSampleMakesATransport() {
    let transport = CurlTransport { address in
        // For example: only loopback, whatever the host name resolves to.
        address.ip == "127.0.0.1" || address.ip == "::1"
    }
    #expect(transport.schemes == ["http", "https"])
}
