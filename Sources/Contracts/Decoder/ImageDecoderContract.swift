import Foundation
import ImagoCore

/// The promises of an `ImageDecoder`, checked against the author's sample files.
///
/// ```swift
/// @Test func pamDecoderKeepsItsContract() async {
///     let report = await ImageDecoderContract(makeDecoder: { PAMCodec() }, fixtures: PAMFixtures.all).run()
///     #expect(report.passed, "\(report)")
/// }
/// ```
public struct ImageDecoderContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case claimsOwnSamples = "claims its own samples from their first bytes"
        case claimsNoOtherFormat = "does not claim other formats' bytes"
        case decodesSamples = "decodes its samples to the expected pixels"
        case refusesTruncated = "refuses truncated input with an ImagoError"
        case refusesCorrupt = "refuses corrupt input with an ImagoError"
        case refusesOverPixelLimit = "refuses images over the pixel and frame limits with limitExceeded"
        case refusesOverByteLimit = "refuses input over maxBytes with tooLarge"
        case refusesHugeHeaders = "refuses huge declared sizes before allocating"
        case honoursTargetSize = "honours a target size: covers it, never larger than full size"
        case honoursFirstFrameOnly = "decodes only the first frame when asked"
        case decodesConcurrently = "gives the same results when called concurrently"
    }

    let makeDecoder: @Sendable () throws -> any ImageDecoder
    let fixtures: [DecoderFixture]
    let sniffSamples: [SniffSample]
    let hugeHeaders: [Data]
    let allowsPartialImages: Bool

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeDecoder: makes the decoder under test (called once per check).
    ///   - fixtures: sample files with the expected result; at least one, ideally several sizes and, for
    ///     formats with animation, an animated one.
    ///   - sniffSamples: headers of other formats the decoder must not claim; samples of the decoder's own
    ///     format are left out. Filter `SniffSample.builtIn` if the decoder reads more than one format.
    ///   - hugeHeaders: files (or their first bytes) that declare an enormous size (for example 100000x100000):
    ///     decoding them with default limits must throw `limitExceeded` before any pixel memory is taken.
    ///   - allowsPartialImages: whether a truncated file may decode to a full-size image with what was received
    ///     (as browsers show a partial JPEG) instead of throwing.
    public init(
        makeDecoder: @escaping @Sendable () throws -> any ImageDecoder, fixtures: [DecoderFixture],
        sniffSamples: [SniffSample] = SniffSample.builtIn, hugeHeaders: [Data] = [], allowsPartialImages: Bool = false
    ) {
        self.makeDecoder = makeDecoder
        self.fixtures = fixtures
        self.sniffSamples = sniffSamples
        self.hugeHeaders = hugeHeaders
        self.allowsPartialImages = allowsPartialImages
    }

    public var title: String {
        let format = (try? makeDecoder().format.rawValue) ?? "?"
        return "ImageDecoder contract (\(format))"
    }

    public var checks: [ContractCheck] {
        var checks: [ContractCheck] = [
            check(.claimsOwnSamples) { try claimsOwnSamples($0) },
            check(.claimsNoOtherFormat) { try claimsNoOtherFormat($0) },
            check(.decodesSamples) { try decodesSamples($0) },
            check(.refusesTruncated) { try refusesTruncated($0) },
            check(.refusesCorrupt) { try refusesCorrupt($0) },
            check(.refusesOverPixelLimit) { try refusesOverPixelLimit($0) },
            check(.refusesOverByteLimit) { try refusesOverByteLimit($0) },
        ]
        if !hugeHeaders.isEmpty { checks.append(check(.refusesHugeHeaders) { try refusesHugeHeaders($0) }) }
        checks += [
            check(.honoursTargetSize) { try honoursTargetSize($0) },
            check(.honoursFirstFrameOnly) { try honoursFirstFrameOnly($0) },
            ContractCheck(Check.decodesConcurrently.rawValue) { try await decodesConcurrently(try makeDecoder()) },
        ]
        return checks
    }

    private func check(_ name: Check, _ body: @escaping @Sendable (any ImageDecoder) throws -> Void) -> ContractCheck {
        let makeDecoder = self.makeDecoder
        let fixtures = self.fixtures
        return ContractCheck.blocking(name.rawValue) {
            try contractRequire(!fixtures.isEmpty, "no fixtures given: the contract needs at least one sample file")
            try body(try makeDecoder())
        }
    }

    /// Decodes, turning any error into a failure that names the fixture.
    func decode(_ decoder: any ImageDecoder, _ data: Data, _ options: DecodeOptions, _ what: String) throws
        -> DecodedImage
    {
        do {
            return try decoder.decode(data, options: options)
        } catch {
            throw ContractFailure("\(what): decoding failed with \(Describe.error(error))")
        }
    }
}
