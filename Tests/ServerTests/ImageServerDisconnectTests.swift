import Foundation
import Imago
import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

extension ServerIntegrationTests {
    /// A client that goes away takes its work with it: its request ends (499 in the access log) when it leaves,
    /// not when the source answers, a render nobody else waits for is cancelled, and shutdown does not wait for it.
    @Suite struct ImageServerDisconnectTests {
        /// Sends GET `target` and closes the connection after `seconds`, without reading the answer.
        static func abandon(_ target: String, port: Int, after seconds: Double) throws {
            let descriptor = try RawHTTP.connect(port: port)
            defer { close(descriptor) }
            let head = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            try RawHTTP.send(descriptor, Data(head.utf8))
            usleep(UInt32(seconds * 1_000_000))
        }

        @Test func clientsThatLeaveEndTheirRequestsAndDoNotHoldShutdown() async throws {
            // One slot: three of the four wait in line when they leave, and leaving the line is no shedding.
            let fixture = try ServerFixture { settings, _, _ in
                settings.shutdownGrace = 10
                settings.maxConcurrentRequests = 1
            }
            let port = fixture.port
            let targets = (0..<4).map { fixture.path("w=20", origin: "slow/6000/photo.jpg?i=\($0)") }
            let left = Date()
            _ = try await RawHTTP.concurrently(targets.count) { index in
                try Self.abandon(targets[index], port: port, after: 0.4)
            }
            // Every one is logged as 499 well before the origin would have answered (6 s).
            func abandoned() -> [LoggedRequest] { fixture.log.filter { $0.status == 499 } }
            while abandoned().count < targets.count && Date().timeIntervalSince(left) < 4 {
                try await Task.sleep(for: .milliseconds(50))
            }
            // Read once more: a starved test process may wake past the 4 s; the server's own timings are checked.
            let entries = abandoned()
            #expect(entries.count == targets.count, "\(fixture.log.map(\.line))")
            #expect(entries.allSatisfy { $0.milliseconds < 3000 }, "\(entries.map(\.milliseconds))")
            // Clients that left are counted on their own, not as requests shed for want of room.
            let metrics = try await fixture.get("/metrics").text
            #expect(metrics.contains("imago_client_disconnects_total 4"), "\(metrics)")
            #expect(metrics.contains("imago_shed_requests_total 0"), "\(metrics)")
            // Nothing is in flight, so SIGTERM exits at once although the grace is 10 s.
            let exit = fixture.process.terminate(timeout: 15)
            #expect(exit.map { $0 < 3 } == true, "exit took \(String(describing: exit)) s")
        }

        @Test func aSharedRenderGoesOnForTheClientsThatStay() async throws {
            let fixture = try ServerFixture()
            let port = fixture.port
            let target = fixture.path("w=20", origin: "slow/1500/photo.jpg")
            let statuses = try await RawHTTP.concurrently(2) { index -> Int in
                if index == 0 {
                    try Self.abandon(target, port: port, after: 0.4)
                    return 0
                }
                usleep(100_000)
                return try RawHTTP.get(port: port, target: target).status
            }
            #expect(statuses[1] == 200)
            #expect(fixture.log.map(\.status).sorted() == [200, 499], "\(fixture.log.map(\.line))")
        }
    }
}
