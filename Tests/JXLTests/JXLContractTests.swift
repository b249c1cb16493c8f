import Foundation
import ImagoContracts
import ImagoCore
import ImagoJXL
import Testing

/// The decoder and encoder contracts, with fixtures made by cjxl and djxl's pixels.
@Suite struct JXLContractTests {
    static func fixture(_ name: String, frames: Int = 1, tolerance: Int = 0) throws -> DecoderFixture {
        let reference = try Fixture.reference(name + ".djxl")
        return DecoderFixture(
            name: name + ".jxl", data: try Fixture.data(name + ".jxl"), width: reference.width,
            height: reference.height, frameCount: frames, pixels: .rgba(reference.pixels, tolerance: tolerance))
    }

    @Test func decoderKeepsItsContract() async throws {
        let fixtures = [
            try Self.fixture("lossless"), try Self.fixture("container"), try Self.fixture("alpha"),
            try Self.fixture("lossy", tolerance: 1), try Self.fixture("anim", frames: 3),
        ]
        let contract = ImageDecoderContract(
            makeDecoder: { JXLCodec() }, fixtures: fixtures,
            sniffSamples: SniffSample.builtIn.filter { $0.format != .jxl }, hugeHeaders: [JXLFixtures.hugeCodestream])
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }

    @Test func encoderKeepsItsContract() async {
        let contract = ImageEncoderContract(
            // A Butteraugli distance (1.45 at quality 85) bounds the perceived error, not the largest one: on these
            // small gradients single channels moved by up to 58 with alpha and 36 without (measured).
            makeEncoder: { JXLCodec(effort: 3) }, makeDecoder: { JXLCodec() }, maxChannelDelta: 64,
            supportsLossless: true, qualityChangesOutput: true)
        let report = await contract.run()
        #expect(report.passed, "\(report)")
    }
}
