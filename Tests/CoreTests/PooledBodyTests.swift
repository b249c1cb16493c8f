import Foundation
import Testing

@testable import ImagoCore

/// Large bodies of announced length are gathered in pooled buffers: the bytes come out exact, the buffer goes back
/// to the pool with the last copy of the data, and a body longer than announced still arrives whole.
@Suite struct PooledBodyTests {
    /// Announces `announced` bytes (default: the body's length), then sends `body` in chunks of `chunk` bytes.
    struct ChunkedTransport: ImageTransport {
        let body: Data
        var announced: Int64?
        var chunk = 65_536
        var schemes: Set<String> { ["chunks"] }
        var cachePolicy: (any TransportCachePolicy)? { nil }

        func fetch(_ request: TransportRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
            AsyncThrowingStream { continuation in
                continuation.yield(
                    .response(TransportMetadata(statusCode: 200, expectedLength: announced ?? Int64(body.count))))
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + chunk)
                    continuation.yield(.bytes(body.subdata(in: offset..<end)))
                    offset = end
                }
                continuation.finish()
            }
        }
    }

    static func body(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 251) }) }
    static let request = TransportRequest(url: URL(string: "chunks://host/a")!)

    @Test func theBufferGoesBackToThePoolWithTheLastCopy() throws {
        let pool = PixelBufferPool(minimumPooledSize: 1024, capacityLimit: 1 << 20)
        let body = try #require(PooledBody(capacity: 4096, pool: pool))
        #expect(body.append(Self.body(3000)))
        #expect(body.append(Self.body(1096)))
        #expect(!body.append(Data([1])), "past the capacity")
        var data: Data? = body.take()
        #expect(data?.count == 4096)
        #expect(data?.prefix(3000) == Self.body(3000))
        #expect(pool.idleBytes == 0, "still in use")
        data = nil
        #expect(pool.idleBytes >= 4096)
        #expect(PooledBody(capacity: 100, pool: pool) == nil, "small bodies stay in Data")
    }

    @Test func aLargeChunkedBodyArrivesExact() async throws {
        let body = Self.body(3_000_000)
        let fetched = try await ChunkedTransport(body: body).fetchAll(Self.request)
        #expect(fetched.data == body)
    }

    @Test func aBodyLongerThanAnnouncedArrivesWholeAndStaysCapped() async throws {
        let body = Self.body(1_000_000)
        let lying = ChunkedTransport(body: body, announced: 600_000)
        #expect(try await lying.fetchAll(Self.request).data == body)
        await #expect(throws: ImagoError.self) { try await lying.fetchAll(Self.request, maxBytes: 800_000) }
    }
}
