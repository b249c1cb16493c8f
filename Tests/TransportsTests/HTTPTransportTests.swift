import Foundation
import ImagoCore
import ImagoTransports
import Testing

@Suite(.loopbackServer)
struct HTTPTransportTests {
    @Test(arguments: HTTPTransportKind.allCases) func streamsTheBodyAfterOneResponseWithItsMetadata(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make()
        let url = try loopback().url("/bytes?n=200000&type=image/png&etag=%22v1%22")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.error == nil)
        #expect(recording.followsEventContract)
        #expect(recording.body == expectedBody(200_000))
        let metadata = try #require(recording.metadata.first)
        #expect(metadata.statusCode == 200)
        #expect(metadata.expectedLength == 200_000)
        #expect(metadata.contentType == "image/png")
        #expect(metadata.etag == "\"v1\"")
        #expect(metadata.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(metadata.cacheControl == "max-age=60")
        #expect(metadata.expires == "Thu, 22 Oct 2015 07:28:00 GMT")
        #expect(metadata.date != nil)
        #expect(metadata.finalURL == url)
    }

    @Test(arguments: HTTPTransportKind.allCases) func deliversBytesAsTheyArriveWithMonotonicProgress(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make()
        let url = try loopback().url("/trickle?n=1000&chunk=100&interval=0.02")
        let progress = ProgressLog()
        let fetched = try await transport.fetchAll(TransportRequest(url: url)) { progress.append($0) }

        #expect(fetched.data == expectedBody(1000))
        let steps = progress.steps
        // Several chunks came separately, not one buffered body.
        #expect(steps.count > 3)
        #expect(steps.map(\.received) == steps.map(\.received).sorted())
        #expect(steps.allSatisfy { $0.expected == 1000 })
        #expect(steps.last?.received == 1000)
    }

    @Test(arguments: HTTPTransportKind.allCases) func streamsChunkedBodiesWithoutALength(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let url = try loopback().url("/chunked?n=50000&chunk=1000")
        let recording = await TransportRecording.record(transport.fetch(TransportRequest(url: url)))

        #expect(recording.error == nil)
        #expect(recording.followsEventContract)
        #expect(recording.metadata.first?.expectedLength == nil)
        #expect(recording.body == expectedBody(50000))
    }

    @Test(arguments: HTTPTransportKind.allCases) func sendsConfiguredPerRequestAndConditionalHeaders(
        _ kind: HTTPTransportKind
    ) async throws {
        let transport = kind.make(
            .init(headers: ["X-Team": "imago", "Accept": "image/*"]))
        let request = TransportRequest(
            url: try loopback().url("/echo"), headers: ["Authorization": "Bearer token", "Accept": "image/png"],
            ifModifiedSince: "Wed, 21 Oct 2015 07:28:00 GMT")
        let fetched = try await transport.fetchAll(request)
        let headers = try #require(try JSONSerialization.jsonObject(with: fetched.data) as? [String: String])

        #expect(headers["user-agent"] == "Imago/0.1")
        #expect(headers["x-team"] == "imago")
        #expect(headers["authorization"] == "Bearer token")
        // The request's own header wins over the configured one.
        #expect(headers["accept"] == "image/png")
        #expect(headers["if-modified-since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
    }

    @Test(arguments: HTTPTransportKind.allCases) func configuredUserAgentIsSent(_ kind: HTTPTransportKind) async throws
    {
        let transport = kind.make(.init(userAgent: "Tester/2"))
        let fetched = try await transport.fetchAll(TransportRequest(url: try loopback().url("/echo")))
        let headers = try #require(try JSONSerialization.jsonObject(with: fetched.data) as? [String: String])
        #expect(headers["user-agent"] == "Tester/2")
    }

    @Test(arguments: HTTPTransportKind.allCases) func answersNotModifiedWithMetadataAndNoBody(_ kind: HTTPTransportKind)
        async throws
    {
        let transport = kind.make()
        let url = try loopback().url("/bytes?n=500&etag=v7")
        let recording = await TransportRecording.record(
            transport.fetch(TransportRequest(url: url, ifNoneMatch: "v7")))

        #expect(recording.error == nil)
        #expect(recording.events == ["response"])
        let metadata = try #require(recording.metadata.first)
        #expect(metadata.isNotModified)
        #expect(metadata.etag == "v7")

        let changed = try await transport.fetchAll(TransportRequest(url: url, ifNoneMatch: "v6"))
        #expect(changed.metadata.statusCode == 200)
        #expect(changed.data == expectedBody(500))
    }

    @Test(arguments: HTTPTransportKind.allCases) func servesManyFetchesAtOnce(_ kind: HTTPTransportKind) async throws {
        let server = try loopback()
        let transport = kind.make()
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let url = server.url("/bytes?n=\(1000 + index)&delay=0.05")
                    let data = try await transport.fetchAll(TransportRequest(url: url)).data
                    return data == expectedBody(1000 + index) ? data : Data()
                }
            }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(bodies.count == 40)
        #expect(bodies.allSatisfy { !$0.isEmpty })
    }
}

/// Progress reports collected from a `@Sendable` callback.
final class ProgressLog: Sendable {
    private let log = LockedValue<[FetchProgress]>([])
    func append(_ progress: FetchProgress) { log.withLock { $0.append(progress) } }
    var steps: [FetchProgress] { log.withLock { $0 } }
}
