import ImagoContracts
import XCTest

/// The contracts work from XCTest too: one assertion per contract, the report as the message.
final class XCTestUsageTests: XCTestCase {
    func testPAMCodecKeepsItsContractsUnderXCTest() async {
        let decoding = await ImageDecoderContract(
            makeDecoder: { PAMCodec() }, fixtures: PAMFixtures.all, sniffSamples: PAMFixtures.foreignHeaders
        ).run()
        XCTAssertTrue(decoding.passed, decoding.description)
        let encoding = await ImageEncoderContract(makeEncoder: { PAMCodec() }, makeDecoder: { PAMCodec() }).run()
        XCTAssertTrue(encoding.passed, encoding.description)
    }

    func testReportNamesTheFailedCheckAndItsReason() async {
        let report = await ImageProcessorContract(makeVariants: {
            [
                BrokenProcessors.IdentifierIgnoresParameters(intensity: 1),
                BrokenProcessors.IdentifierIgnoresParameters(intensity: 0),
            ]
        }).run()
        XCTAssertFalse(report.passed)
        XCTAssertTrue(report.description.contains("1 of 6 checks failed"), report.description)
        XCTAssertTrue(
            report.description.contains(
                "✗ changes its identifier when its parameters change: variants 0 and 1 have different parameters "
                    + "but the same identifier \"grayscale\""),
            report.description)
    }
}
