import Foundation
import ImagoCore
import ImagoTransports
import Testing

extension HTTPTransportTests {
    @Test(arguments: HTTPTransportKind.allCases) func idleTimeoutEndsAFetchTheServerNeverAnswers(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make(.init(idleTimeout: 0.3))
        let url = try loopback().url("/hang")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        let error = try #require(recording.imagoError)
        #expect(error.kind == .timedOut)
        #expect(error.reason == "timed out after 0.3 s waiting for a response")
        #expect(error.source == url.absoluteString)
        #expect(recording.events.isEmpty)
    }

    @Test(arguments: HTTPTransportKind.allCases) func idleTimeoutEndsABodyThatStalls(_ kind: HTTPTransportKind)
        async throws
    {
        // The server sends one chunk, then stays silent for a minute: however late the watchdog runs on a busy
        // machine, the second chunk cannot beat it. A generous timeout keeps the head and the first chunk (sent
        // back to back) inside it even when the client is starved for a while.
        let transport = kind.make(.init(idleTimeout: 1.5))
        let url = try loopback().url("/trickle?n=100&chunk=10&interval=60")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.imagoError?.kind == .timedOut)
        #expect(recording.imagoError?.reason == "timed out after 1.5 s waiting for data")
        #expect(recording.body == expectedBody(10))
    }

    @Test(arguments: HTTPTransportKind.allCases) func totalDeadlineEndsABodyThatKeepsTrickling(
        _ kind: HTTPTransportKind
    ) async throws {
        // Every chunk comes well within the idle timeout (0.1 s against 10 s), but the whole takes 10 s: seven
        // times the deadline, so only a deadline that works ends it early.
        let transport = kind.make(.init(idleTimeout: 10, totalDeadline: 1.5))
        let url = try loopback().url("/trickle?n=1000&chunk=10&interval=0.1")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.imagoError?.kind == .timedOut)
        #expect(recording.imagoError?.reason == "timed out after 1.5 s (total deadline)")
        #expect(recording.followsEventContract)
        #expect(recording.body.count < 1000)
    }

    @Test(arguments: HTTPTransportKind.allCases) func refusesADeclaredLengthOverTheCapBeforeTheBody(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make(.init(maxBytes: 1_000_000))
        let url = try loopback().url("/huge")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        let error = try #require(recording.imagoError)
        #expect(error.kind == .tooLarge)
        #expect(error.reason == "too large: 1000000000000 bytes exceeds the limit of 1000000 bytes")
        #expect(error.source == url.absoluteString)
        #expect(recording.events.isEmpty)
    }

    @Test(arguments: HTTPTransportKind.allCases) func cutsABodyThatGrowsPastTheCap(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make(.init(maxBytes: 50_000))
        let url = try loopback().url("/chunked?n=200000&chunk=10000")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.imagoError?.kind == .tooLarge)
        #expect(recording.imagoError?.reason == "too large: more than 50000 bytes")
        #expect(recording.body.count <= 50_000)
        #expect(recording.body == expectedBody(recording.body.count))
    }

    @Test(arguments: HTTPTransportKind.allCases) func failsATruncatedBody(_ kind: HTTPTransportKind) async throws {
        let url = try loopback().url("/cut?n=1000&send=100")
        let recording = await TransportRecording.record(kind.make().fetch(TransportRequest(url: url)))

        let error = try #require(recording.imagoError)
        #expect(error.kind == .connectionFailed)
        #expect(error.reason.hasPrefix("truncated body: received"))
        #expect(error.reason.hasSuffix("of 1000 bytes"))
        #expect(recording.body.count <= 100)
    }

    @Test(arguments: HTTPTransportKind.allCases) func cancellingTheConsumingTaskStopsTheTransferAtOnce(
        _ kind: HTTPTransportKind
    ) async throws {
        let server = try loopback()
        let id = UUID().uuidString
        let url = server.url("/trickle?n=2000000&chunk=100&interval=0.02&id=\(id)")
        let transport = kind.make()
        let firstBytes = AsyncStream.makeStream(of: Void.self)
        let proceed = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var chunks = 0
            for try await event in transport.fetch(TransportRequest(url: url)) {
                guard case .bytes = event else { continue }
                chunks += 1
                if chunks == 1 {
                    firstBytes.continuation.yield()
                    // Meanwhile more chunks arrive and wait in the stream; none may be delivered after the cancel.
                    for await _ in proceed.stream { break }
                }
            }
            return chunks
        }
        for await _ in firstBytes.stream { break }
        try await Task.sleep(for: .milliseconds(100))
        consumer.cancel()
        proceed.continuation.yield()

        #expect(try await consumer.value == 1)
        // The server sees the connection go away: its next writes fail.
        #expect(try await waitForDisconnect(id: id, on: server))
    }

    @Test(arguments: HTTPTransportKind.allCases) func stoppingIterationCancelsTheTransfer(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let server = try loopback()
        let id = UUID().uuidString
        let url = server.url("/trickle?n=2000000&chunk=100&interval=0.05&id=\(id)")
        for try await event in transport.fetch(TransportRequest(url: url)) {
            if case .bytes = event { break }
        }
        let disconnected = try await waitForDisconnect(id: id, on: server)
        #expect(disconnected)
    }

    @Test(arguments: HTTPTransportKind.allCases) func timeoutsAcceptFractionalSecondsBelowOne(_ kind: HTTPTransportKind)
        async throws
    {
        // URLSession on Linux would turn 0.9 s into 0 and fail at once; the transport must not. (Both just under
        // a second, so a busy machine has most of a second for a 1000-byte loopback fetch.)
        let transport = kind.make(.init(idleTimeout: 0.9, totalDeadline: 0.99))
        let url = try loopback().url("/bytes?n=1000&delay=0.1")
        let fetched = try await transport.fetchAll(TransportRequest(url: url))
        #expect(fetched.data == expectedBody(1000))
    }

    /// Polls the server until it records how the transfer under `id` ended: a disconnect, or (`false`) the whole
    /// body sent.
    ///
    /// An order of events, not a timer: the trickles these tests stop last 400 s or more, so only a client that
    /// really closed the connection makes the server record a disconnect, however long a busy machine (or a
    /// cooperative pool saturated by other suites) takes to do it. The 120 s limit only keeps a transfer that is
    /// never stopped from hanging the suite.
    private func waitForDisconnect(id: String, on server: LoopbackServer) async throws -> Bool {
        let giveUp = ContinuousClock.now + .seconds(120)
        // Asks at least once: a test task starved past the limit must still see a disconnect that happened.
        repeat {
            if let events = try await server.events(id: id) { return events["disconnected"] as? Bool ?? false }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < giveUp
        return false
    }
}
