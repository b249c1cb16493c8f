import Foundation
import ImagoCore
import ImagoTransports
import Testing

/// What the libcurl transport does beyond the promises both HTTP transports keep (those are `HTTPTransportTests`).
@Suite(.loopbackServer)
struct CurlTransportTests {
    @Test func pausesATransferWhoseConsumerStopsReadingAndResumesIt() async throws {
        let server = try loopback()
        let id = UUID().uuidString
        let size = 32 << 20
        // The pause is longer than the idle timeout: time spent paused for the consumer is not idle time. The total
        // deadline is out of the way: a test process busy with hundreds of other tests reads 32 MB slowly.
        let transport = CurlTransport(configuration: .init(idleTimeout: 0.5, totalDeadline: 3600))
        var received = 0
        var isPatternIntact = true
        var sentWhilePaused = 0
        for try await event in transport.fetch(TransportRequest(url: server.url("/stream?n=\(size)&id=\(id)"))) {
            guard case .bytes(let chunk) = event else { continue }
            isPatternIntact = isPatternIntact && chunk.first == UInt8(received % 251)
            received += chunk.count
            if sentWhilePaused == 0 {
                try await Task.sleep(for: .seconds(1.5))
                sentWhilePaused = try await server.events(id: id)?["sent"] as? Int ?? 0
            }
        }
        // Without back-pressure the server would have sent all 32 MB into our memory meanwhile; with it, only
        // the transport's 1 MiB and the kernel's socket buffers fill up.
        #expect(sentWhilePaused > 0)
        #expect(sentWhilePaused < 16 << 20, "the server sent \(sentWhilePaused) bytes while nobody read")
        #expect(received == size)
        #expect(isPatternIntact)
    }

    @Test func theConnectionFilterSeesTheAddressAndCanRefuseIt() async throws {
        let server = try loopback()
        let seen = LockedValue<[ConnectionAddress]>([])
        let id = UUID().uuidString
        let transport = CurlTransport { address in
            seen.withLock { $0.append(address) }
            return false
        }
        let url = server.url("/bytes?n=10&seen=\(id)")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        let error = try #require(recording.imagoError)
        #expect(error.kind == .addressRefused)
        #expect(error.kind.name == "addressRefused")
        #expect(error.reason.hasPrefix("refused to connect to 127.0.0.1:\(url.port ?? 0) (127.0.0.1)"))
        #expect(error.source == url.absoluteString)
        #expect(recording.events.isEmpty)
        #expect(
            seen.withLock { $0 } == [
                ConnectionAddress(host: "127.0.0.1", ip: "127.0.0.1", port: url.port ?? 0, isIPv6: false)
            ])
        // Nothing reached the server.
        #expect(try await server.events(id: id) == nil)
    }

    @Test func theConnectionFilterLetsAllowedAddressesThrough() async throws {
        let seen = LockedValue<[ConnectionAddress]>([])
        let transport = CurlTransport { address in
            seen.withLock { $0.append(address) }
            return true
        }
        let url = try loopback().url("/bytes?n=100")
        let fetched = try await transport.fetchAll(TransportRequest(url: url))
        #expect(fetched.data == expectedBody(100))
        #expect(seen.withLock { $0.map(\.ip) } == ["127.0.0.1"])
    }

    @Test func theConnectionFilterSeesRedirectTargets() async throws {
        let server = try loopback()
        let port = server.url("/").port ?? 0
        let seen = LockedValue<[ConnectionAddress]>([])
        let id = UUID().uuidString
        // Allows the first host and refuses the host a redirect leads to, whichever address it resolves to.
        let transport = CurlTransport { address in
            seen.withLock { $0.append(address) }
            return address.host == "127.0.0.1"
        }
        let url = server.url("/redirect-to?location=http://localhost:\(port)/bytes%3Fseen%3D\(id)")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.imagoError?.kind == .addressRefused)
        #expect(recording.imagoError?.source == url.absoluteString)
        let hosts = seen.withLock { $0.map(\.host) }
        #expect(hosts.first == "127.0.0.1")
        #expect(hosts.dropFirst().allSatisfy { $0 == "localhost" } && hosts.count >= 2)
        #expect(seen.withLock { $0.allSatisfy { $0.port == port } })
        #expect(try await server.events(id: id) == nil)
    }

    @Test func sendsRequestsThroughAConfiguredProxy() async throws {
        // The loopback server plays the proxy: a proxied request names the whole URL, which it routes by path.
        let server = try loopback()
        let proxy = "http://127.0.0.1:\(server.url("/").port ?? 0)"
        let transport = CurlTransport(configuration: .init(proxy: proxy))
        let fetched = try await transport.fetchAll(
            TransportRequest(url: URL(string: "http://imago-proxy.invalid/echo")!))
        let headers = try #require(try JSONSerialization.jsonObject(with: fetched.data) as? [String: String])
        #expect(headers["host"] == "imago-proxy.invalid")
    }

    @Test func aTransportReleasedMidFetchLetsTheFetchFinish() async throws {
        var transport: CurlTransport? = CurlTransport()
        let stream = transport!.fetch(TransportRequest(url: try loopback().url("/bytes?n=5000&delay=0.2")))
        transport = nil
        #expect(transport == nil)
        let recording = await TransportRecording.record(stream)
        #expect(recording.error == nil)
        #expect(recording.body == expectedBody(5000))
    }
}
