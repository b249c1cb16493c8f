import Foundation
import ImagoCore
import ImagoTransports
import Testing

extension HTTPTransportTests {
    @Test(arguments: HTTPTransportKind.allCases)
    func dropsCredentialsWhenARedirectChangesHost(_ kind: HTTPTransportKind) async throws {
        let server = try loopback()
        // `localhost` is the same loopback server under another host name.
        let target = "http://localhost:\(server.url("/").port ?? 0)/echo"
        let request = TransportRequest(
            url: server.url("/redirect-to?location=\(target)"),
            headers: ["Authorization": "Bearer token", "Cookie": "a=b", "X-Keep": "yes"])
        let fetched = try await kind.make().fetchAll(request)
        let headers = try #require(try JSONSerialization.jsonObject(with: fetched.data) as? [String: String])
        #expect(headers["authorization"] == nil)
        #expect(headers["cookie"] == nil)
        #expect(headers["x-keep"] == "yes")
        #expect(fetched.metadata.finalURL?.host == "localhost")
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func reusesTheConnectionForTheNextFetch(_ kind: HTTPTransportKind) async throws {
        let transport = kind.make()
        let url = try loopback().url("/peer")
        var ports: Set<String> = []
        for _ in 0..<10 {
            ports.insert(String(decoding: try await transport.fetchAll(TransportRequest(url: url)).data, as: UTF8.self))
        }
        // Usually one connection; a starved machine can start the next fetch before the last one's connection is
        // back in the pool, which opens another. Without reuse there would be ten.
        #expect(ports.count <= 3, "\(ports)")
    }

    @Test(arguments: HTTPTransportKind.allCases)
    func opensAtMostTheConnectionsAllowedPerHost(_ kind: HTTPTransportKind) async throws {
        let transport = kind.make(.init(maxConnectionsPerHost: 2))
        let url = try loopback().url("/peer?delay=0.1")
        let ports = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    String(decoding: try await transport.fetchAll(TransportRequest(url: url)).data, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ports.count <= 2, "\(ports)")
        #expect(!ports.isEmpty)
    }
}
