import Foundation
import Imago
import ImagoContracts
import Testing

/// Every built-in processor keeps the processor contract.
@Suite struct BuiltinProcessorContractTests {
    @Test func resizeProcessorKeepsTheProcessorContract() async {
        let contract = ImageProcessorContract(makeVariants: {
            [
                ResizeProcessor(width: 32, height: 32), ResizeProcessor(width: 32, height: 24),
                ResizeProcessor(width: 32, height: 32, mode: .fill),
                ResizeProcessor(width: 128, height: 128, upscale: true),
            ]
        })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func cropProcessorKeepsTheProcessorContract() async {
        let contract = ImageProcessorContract(makeVariants: {
            [CropProcessor(x: 0, y: 0, width: 8, height: 8), CropProcessor(x: 4, y: 2, width: 8, height: 8)]
        })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func orientationProcessorKeepsTheProcessorContract() async {
        let report = await ImageProcessorContract(makeVariants: { [OrientationProcessor()] }).run()
        #expect(report.passed, "\(report)")
    }
}
