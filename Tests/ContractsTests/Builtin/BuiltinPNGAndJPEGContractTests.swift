import Foundation
import Imago
import ImagoContracts
import Testing

/// The PNG and JPEG codecs keep the decoder and encoder contracts.
@Suite struct BuiltinPNGAndJPEGContractTests {
    @Test func pngKeepsTheDecoderContract() async throws {
        let fixtures = try BuiltinFixtures.make(PNGCodec(), tolerance: 0, alpha: true)
        let contract = ImageDecoderContract(
            makeDecoder: { PNGCodec() }, fixtures: fixtures,
            hugeHeaders: [BuiltinFixtures.hugePNG(from: fixtures[0].data)])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func pngKeepsTheEncoderContract() async {
        let report = await ImageEncoderContract(makeEncoder: { PNGCodec() }, makeDecoder: { PNGCodec() }).run()
        #expect(report.passed, "\(report)")
    }

    @Test func jpegKeepsTheDecoderContract() async throws {
        // Chroma subsampling costs a 5x3 image whose channels step by 63 a pixel much more than a smooth 64x48 one.
        let fixtures = try BuiltinFixtures.make(
            JPEGCodec(), options: EncodeOptions(quality: 95), tolerance: 16, smallTolerance: 64, alpha: false)
        let contract = ImageDecoderContract(
            makeDecoder: { JPEGCodec() }, fixtures: fixtures,
            hugeHeaders: [BuiltinFixtures.hugeJPEG(from: fixtures[0].data)].compactMap { $0 }, allowsPartialImages: true
        )
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func jpegKeepsTheEncoderContract() async {
        let contract = ImageEncoderContract(
            makeEncoder: { JPEGCodec() }, makeDecoder: { JPEGCodec() }, maxChannelDelta: 16, preservesAlpha: false,
            supportsLossless: false, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
