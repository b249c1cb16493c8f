import ImagoContracts
import ImagoCore
import Testing

/// The worked example processor keeps the processor contract.
@Suite struct ProcessorContractTests {
    @Test func grayscaleProcessorKeepsTheProcessorContract() async {
        let contract = ImageProcessorContract(makeVariants: {
            [GrayscaleProcessor(intensity: 1), GrayscaleProcessor(intensity: 0.5), GrayscaleProcessor(intensity: 0)]
        })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageProcessorContract.Check.allCases.count)
    }
}
