import ImagoContracts
import ImagoCore
import Testing

/// The worked example codec keeps the decoder and encoder contracts.
@Suite struct CodecContractTests {
    @Test func pamDecoderKeepsTheDecoderContract() async {
        let contract = ImageDecoderContract(
            makeDecoder: { PAMCodec() }, fixtures: PAMFixtures.all, sniffSamples: PAMFixtures.foreignHeaders,
            hugeHeaders: PAMFixtures.hugeHeaders)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageDecoderContract.Check.allCases.count)
    }

    @Test func pamEncoderKeepsTheEncoderContract() async {
        let report = await ImageEncoderContract(makeEncoder: { PAMCodec() }, makeDecoder: { PAMCodec() }).run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ImageEncoderContract.Check.allCases.count)
    }
}
