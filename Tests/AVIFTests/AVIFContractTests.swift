import Foundation
import ImagoAVIF
import ImagoContracts
import ImagoCore
import Testing

/// The decoder and encoder contracts, with fixtures made by avifenc and avifdec's pixels.
@Suite struct AVIFContractTests {
    static func fixture(_ name: String, frames: Int = 1, tolerance: Int = AVIFCodecTests.tolerance) throws
        -> DecoderFixture
    {
        let reference = try Fixture.reference(name + ".avifdec")
        return DecoderFixture(
            name: name + ".avif", data: try Fixture.data(name + ".avif"), width: reference.width,
            height: reference.height, frameCount: frames, pixels: .rgba(reference.pixels, tolerance: tolerance))
    }

    @Test func decoderKeepsItsContract() async throws {
        let fixtures = [
            try Self.fixture("still"), try Self.fixture("alpha"), try Self.fixture("depth10"),
            try Self.fixture("anim", frames: 3), try Self.fixture("lossless", tolerance: 0),
        ]
        let huge = Fixture.declaring(width: 65535, height: 65535, in: try Fixture.data("still.avif"))
        let contract = ImageDecoderContract(
            makeDecoder: { AVIFCodec() }, fixtures: fixtures,
            sniffSamples: SniffSample.builtIn.filter { $0.format != .avif }, hugeHeaders: [huge])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func encoderKeepsItsContract() async {
        let contract = ImageEncoderContract(
            makeEncoder: { AVIFCodec(speed: 10) }, makeDecoder: { AVIFCodec() }, maxChannelDelta: 16,
            supportsLossless: true, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
