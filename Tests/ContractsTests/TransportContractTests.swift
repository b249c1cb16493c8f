import Foundation
import ImagoContracts
import ImagoCore
import Testing

/// The worked example transport keeps the transport contract.
@Suite struct TransportContractTests {
    @Test func memoryTransportKeepsTheTransportContract() async {
        let transport = MemoryTransport()
        let contract = ImageTransportContract(
            transport: transport, serve: { transport.put($0) }, missingSource: URL(string: "mem://store/missing")!)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageTransportContract.Check.allCases.count)
    }

    @Test func memoryTransportWithOneByteChunksKeepsTheContract() async {
        let transport = MemoryTransport(chunkSize: 1)
        let contract = ImageTransportContract(
            transport: transport, serve: { transport.put($0) }, missingSource: URL(string: "mem://store/missing")!,
            payloadSize: 4096, cancellationPayloadSize: 1 << 20)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
