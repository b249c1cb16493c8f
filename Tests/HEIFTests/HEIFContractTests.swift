import Foundation
import ImagoContracts
import ImagoCore
import ImagoHEIF
import Testing

/// The decoder and encoder contracts, with fixtures made by heif-enc and heif-convert's pixels.
@Suite struct HEIFContractTests {
    static func fixture(_ name: String) throws -> DecoderFixture {
        let reference = try Fixture.reference(name + ".libheif")
        return DecoderFixture(
            name: name + ".heic", data: try Fixture.data(name + ".heic"), width: reference.width,
            height: reference.height, pixels: .rgba(reference.pixels, tolerance: 0))
    }

    @Test func decoderKeepsItsContract() async throws {
        let fixtures = try ["still", "alpha", "depth10", "rotated", "lossless"].map(Self.fixture)
        let huge = Fixture.declaring(width: 65535, height: 65535, in: try Fixture.data("still.heic"))
        let contract = ImageDecoderContract(
            makeDecoder: { HEIFCodec() }, fixtures: fixtures,
            sniffSamples: SniffSample.builtIn.filter { $0.format != .heic }, hugeHeaders: [huge])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func encoderKeepsItsContract() async {
        let contract = ImageEncoderContract(
            makeEncoder: { HEIFCodec(speed: 9) }, makeDecoder: { HEIFCodec() }, maxChannelDelta: 24,
            // Lossless is within 1, not exact (libheif's RGB to GBR rounding; see HEIFCodecTests).
            supportsLossless: false, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
