import Foundation
import ImagoCore

/// The promises of an `ImageEncoder`, checked by round trips through a decoder of the same format.
///
/// ```swift
/// let report = await ImageEncoderContract(makeEncoder: { PAMCodec() }, makeDecoder: { PAMCodec() }).run()
/// XCTAssertTrue(report.passed, report.description)
/// ```
public struct ImageEncoderContract: PluginContract {
    /// The checks, by name.
    public enum Check: String, CaseIterable, Sendable {
        case roundTrips = "round-trips through the decoder within its stated loss"
        case keepsOddSizes = "keeps the size of 1x1 and odd-sized images"
        case keepsAlpha = "keeps transparency"
        case honoursLossless = "round-trips exactly when asked for lossless"
        case honoursQuality = "higher quality loses no more than lower quality"
        case handlesAnimation = "writes every frame when asked and able, else the first"
        case encodesConcurrently = "gives the same bytes when called concurrently"
    }

    let makeEncoder: @Sendable () throws -> any ImageEncoder
    let makeDecoder: @Sendable () throws -> any ImageDecoder
    let maxChannelDelta: Int
    let preservesAlpha: Bool
    let supportsLossless: Bool
    let qualityChangesOutput: Bool

    /// Creates the contract.
    ///
    /// - Parameters:
    ///   - makeEncoder: makes the encoder under test.
    ///   - makeDecoder: makes a decoder of the same format, to read the output back.
    ///   - maxChannelDelta: the stated loss: the largest difference of any channel after a round trip of a smooth
    ///     gradient with default options (0 for lossless formats).
    ///   - preservesAlpha: whether the format keeps an alpha channel (false for JPEG: samples are then opaque).
    ///   - supportsLossless: whether `EncodeOptions(lossless: true)` must round-trip exactly.
    ///   - qualityChangesOutput: whether the quality option must change the output (lossy formats).
    public init(
        makeEncoder: @escaping @Sendable () throws -> any ImageEncoder,
        makeDecoder: @escaping @Sendable () throws -> any ImageDecoder, maxChannelDelta: Int = 0,
        preservesAlpha: Bool = true, supportsLossless: Bool = true, qualityChangesOutput: Bool = false
    ) {
        self.makeEncoder = makeEncoder
        self.makeDecoder = makeDecoder
        self.maxChannelDelta = maxChannelDelta
        self.preservesAlpha = preservesAlpha
        self.supportsLossless = supportsLossless
        self.qualityChangesOutput = qualityChangesOutput
    }

    public var title: String {
        let format = (try? makeEncoder().format.rawValue) ?? "?"
        return "ImageEncoder contract (\(format))"
    }

    public var checks: [ContractCheck] {
        var checks = [
            check(.roundTrips) { try $0.roundTrips($1, $2) }, check(.keepsOddSizes) { try $0.keepsOddSizes($1, $2) },
        ]
        if preservesAlpha { checks.append(check(.keepsAlpha) { try $0.keepsAlpha($1, $2) }) }
        if supportsLossless { checks.append(check(.honoursLossless) { try $0.honoursLossless($1, $2) }) }
        checks += [
            check(.honoursQuality) { try $0.honoursQuality($1, $2) },
            check(.handlesAnimation) { try $0.handlesAnimation($1, $2) },
        ]
        let makeEncoder = self.makeEncoder
        checks.append(
            ContractCheck(Check.encodesConcurrently.rawValue) {
                try await Self.encodesConcurrently(try makeEncoder())
            })
        return checks
    }

    private func check(
        _ name: Check, _ body: @escaping @Sendable (Self, any ImageEncoder, any ImageDecoder) throws -> Void
    ) -> ContractCheck {
        ContractCheck.blocking(name.rawValue) { try body(self, try makeEncoder(), try makeDecoder()) }
    }

    /// Encodes then decodes, turning errors into failures that say which step broke.
    func roundTrip(
        _ image: DecodedImage, _ options: EncodeOptions, _ encoder: any ImageEncoder, _ decoder: any ImageDecoder,
        _ what: String
    ) throws -> (data: Data, image: DecodedImage) {
        let data: Data
        do {
            data = try encoder.encode(image, options: options)
        } catch {
            throw ContractFailure("\(what): encoding failed with \(Describe.error(error))")
        }
        try contractRequire(
            decoder.canDecode(Data(data.prefix(ImageFormat.sniffLength))),
            "\(what): the \(decoder.format) decoder does not recognise the \(data.count) bytes written")
        do {
            return (data, try decoder.decode(data, options: .default))
        } catch {
            throw ContractFailure("\(what): decoding the output failed with \(Describe.error(error))")
        }
    }

    /// The smooth sample, opaque unless the format keeps alpha.
    var gradient: DecodedImage {
        get throws { try SampleImages.gradient(width: 64, height: 48, alpha: preservesAlpha) }
    }
}
