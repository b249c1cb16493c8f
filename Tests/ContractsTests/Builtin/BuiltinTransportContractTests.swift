import Foundation
import Imago
import ImagoContracts
import Testing

/// Every built-in transport keeps the transport contract.
@Suite struct BuiltinTransportContractTests {
    @Test func fileTransportKeepsTheTransportContract() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contract = ImageTransportContract(
            transport: FileTransport(),
            serve: { data in
                let url = folder.appendingPathComponent(UUID().uuidString + ".bin")
                try data.write(to: url)
                return url
            },
            missingSource: folder.appendingPathComponent("missing.png"))
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func dataURITransportKeepsTheTransportContract() async {
        let contract = ImageTransportContract(
            transport: DataURITransport(),
            serve: { URL(string: "data:application/octet-stream;base64," + $0.base64EncodedString())! },
            missingSource: URL(string: "data:image/png;base64,%%%not-base64")!, payloadSize: 64 * 1024,
            cancellationPayloadSize: 1 << 20)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    /// Both HTTP(S) transports: libcurl's (the default on Linux) and URLSession's.
    @Test(arguments: ["curl", "urlsession"])
    func httpTransportKeepsTheTransportContract(name: String) async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let transport: any ImageTransport = name == "curl" ? CurlTransport() : HTTPTransport()
        // The server counts what it sends, so the contract also sees the transport stop reading once cancelled.
        let contract = ImageTransportContract(
            transport: transport, serve: { try server.serve($0) }, missingSource: server.missingURL,
            producedBytes: { await server.bytesSent(for: $0) })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
