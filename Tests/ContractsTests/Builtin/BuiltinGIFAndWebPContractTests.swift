import Foundation
import Imago
import ImagoContracts
import Testing

/// The GIF and WebP codecs keep the decoder and encoder contracts.
@Suite struct BuiltinGIFAndWebPContractTests {
    @Test func gifKeepsTheDecoderContract() async throws {
        // A 256-colour palette for a 3072-colour gradient: up to 48 levels off.
        let fixtures = try BuiltinFixtures.make(GIFCodec(), tolerance: 48, alpha: false)
        // A truncated GIF shows the frames received, as browsers do.
        let contract = ImageDecoderContract(
            makeDecoder: { GIFCodec() }, fixtures: fixtures,
            hugeHeaders: [BuiltinFixtures.hugeGIF(from: fixtures[0].data)].compactMap { $0 }, allowsPartialImages: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func gifKeepsTheEncoderContract() async {
        let contract = ImageEncoderContract(
            makeEncoder: { GIFCodec() }, makeDecoder: { GIFCodec() }, maxChannelDelta: 48, preservesAlpha: false,
            supportsLossless: false)
        let report = await contract.run()
        // Known issue, reported to the codec: encodes running at the same time give different bytes, though
        // encodes one after the other agree. Remove this exception when it is fixed.
        let known: Set = [ImageEncoderContract.Check.encodesConcurrently.rawValue]
        #expect(report.failedCheckNames.isSubset(of: known), "\(report)")
    }

    @Test func webpKeepsTheDecoderContract() async throws {
        let lossless = try BuiltinFixtures.make(
            WebPCodec(), options: EncodeOptions(lossless: true), tolerance: 0, alpha: true)
        let lossy = try BuiltinFixtures.make(
            WebPCodec(), options: EncodeOptions(quality: 95), tolerance: 24, alpha: true)
        let fixtures =
            lossless
            + lossy.prefix(1).map { fixture in
                var copy = fixture
                copy.name += " (lossy)"
                return copy
            }
        let contract = ImageDecoderContract(
            makeDecoder: { WebPCodec() }, fixtures: fixtures,
            hugeHeaders: [BuiltinFixtures.hugeWebP(from: lossless[2].data)].compactMap { $0 })
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func webpKeepsTheEncoderContract() async {
        let contract = ImageEncoderContract(
            makeEncoder: { WebPCodec() }, makeDecoder: { WebPCodec() }, maxChannelDelta: 24, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
