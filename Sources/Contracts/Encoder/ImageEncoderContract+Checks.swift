import Foundation
import ImagoCore

extension ImageEncoderContract {
    func roundTrips(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        let original = try gradient
        let what = "64x48 gradient with default options"
        let decoded = try roundTrip(original, .default, encoder, decoder, what).image
        try contractRequire(
            decoded.format == encoder.format, "\(what): read back as \(decoded.format), expected \(encoder.format)")
        try requireClose(decoded, original, within: maxChannelDelta, what)
    }

    func keepsOddSizes(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        for (width, height) in [(1, 1), (3, 5), (17, 9), (1, 40), (40, 1)] {
            let what = "\(width)x\(height) gradient"
            let original = try SampleImages.gradient(width: width, height: height, alpha: preservesAlpha)
            let decoded = try roundTrip(original, .default, encoder, decoder, what).image
            try contractRequire(
                decoded.width == width && decoded.height == height, "\(what): read back as \(Describe.size(decoded))")
        }
    }

    func keepsAlpha(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        let original = try SampleImages.gradient(width: 32, height: 8, alpha: true)
        let what = "32x8 gradient with varying alpha"
        let decoded = try roundTrip(original, .default, encoder, decoder, what).image
        try contractRequire(decoded.hasAlpha, "\(what): read back with hasAlpha false")
        try requireClose(decoded, original, within: maxChannelDelta, what)
    }

    func honoursLossless(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        let original = try Self.textured(alpha: preservesAlpha)
        let what = "textured 64x48 image with lossless: true"
        let decoded = try roundTrip(original, EncodeOptions(lossless: true), encoder, decoder, what).image
        try requireClose(decoded, original, within: 0, what)
    }

    func honoursQuality(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        let original = try Self.textured(alpha: preservesAlpha)
        let low = try roundTrip(original, EncodeOptions(quality: 10), encoder, decoder, "quality 10")
        let high = try roundTrip(original, EncodeOptions(quality: 95), encoder, decoder, "quality 95")
        let ignoringAlpha = !preservesAlpha
        guard
            let lowError = PixelDifference.meanChannelDelta(
                low.image.raster, original.raster, ignoringAlpha: ignoringAlpha),
            let highError = PixelDifference.meanChannelDelta(
                high.image.raster, original.raster, ignoringAlpha: ignoringAlpha)
        else {
            throw ContractFailure("quality 10 or 95 changed the image size")
        }
        try contractRequire(
            highError <= lowError + 0.5,
            "quality 95 loses more (mean delta \(Self.format(highError))) than quality 10 (\(Self.format(lowError)))")
        if qualityChangesOutput {
            try contractRequire(
                low.data != high.data && (highError < lowError || high.data.count > low.data.count),
                "quality is ignored: quality 10 and 95 give \(low.data.count) and \(high.data.count) bytes, "
                    + "mean delta \(Self.format(lowError)) and \(Self.format(highError))")
        }
    }

    func handlesAnimation(_ encoder: any ImageEncoder, _ decoder: any ImageDecoder) throws {
        let animation = try SampleImages.animation(width: 16, height: 16, count: 3)
        let expectedFrames = encoder.supportsAnimation ? 3 : 1
        let what = "3-frame 16x16 animation"
        let all = try roundTrip(animation, EncodeOptions(allFrames: true), encoder, decoder, "\(what) with allFrames")
            .image
        try contractRequire(
            all.frames.count == expectedFrames,
            "\(what) with allFrames: read back \(all.frames.count) frames, expected \(expectedFrames)"
                + (encoder.supportsAnimation ? "" : " (supportsAnimation is false)"))
        for (index, frame) in all.frames.enumerated() {
            let original = animation.frames[index]
            guard
                let delta = PixelDifference.maxChannelDelta(
                    frame.raster, original.raster, ignoringAlpha: !preservesAlpha),
                delta <= maxChannelDelta
            else {
                throw ContractFailure("\(what): frame \(index) differs from the original beyond the stated loss")
            }
            if encoder.supportsAnimation {
                try contractRequire(
                    abs(frame.duration - original.duration) <= 0.02,
                    "\(what): frame \(index) lasts \(frame.duration) s, expected \(original.duration) s")
            }
        }
        let first = try roundTrip(
            animation, EncodeOptions(allFrames: false), encoder, decoder, "\(what) without allFrames")
        try contractRequire(
            first.image.frames.count == 1,
            "\(what) without allFrames: read back \(first.image.frames.count) frames, expected 1")
    }

    static func encodesConcurrently(_ encoder: any ImageEncoder) async throws {
        let (image, expected) = try await Blocking.run {
            let image = try textured(alpha: false)
            return (image, try encoder.encode(image, options: .default))
        }
        let mismatches = await Blocking.concurrently(16) { round -> String? in
            do {
                return try encoder.encode(image, options: .default) == expected ? nil : "round \(round) differs"
            } catch {
                return "round \(round) failed: \(Describe.error(error))"
            }
        }.compactMap { $0 }
        try contractRequire(
            mismatches.isEmpty,
            "concurrent encodes disagree with a lone encode: \(mismatches.prefix(3).joined(separator: "; "))")
    }

    private func requireClose(_ decoded: DecodedImage, _ original: DecodedImage, within limit: Int, _ what: String)
        throws
    {
        guard
            let delta = PixelDifference.maxChannelDelta(decoded.raster, original.raster, ignoringAlpha: !preservesAlpha)
        else {
            throw ContractFailure(
                "\(what): read back as \(Describe.size(decoded)), expected \(Describe.size(original))")
        }
        try contractRequire(
            delta <= limit, "\(what): channels differ by up to \(delta) after a round trip (stated loss \(limit))")
    }

    /// A gradient with noise, so that quality settings matter.
    static func textured(alpha: Bool) throws -> DecodedImage {
        let base = try SampleImages.gradient(width: 64, height: 48, alpha: alpha)
        var pixels = base.raster.pixels
        var random = SeededGenerator(seed: 64)
        for index in pixels.indices where index % 4 != 3 {
            pixels[index] = UInt8(clamping: Int(pixels[index]) + Int.random(in: -24...24, using: &random))
        }
        return DecodedImage(
            raster: try Raster(width: 64, height: 48, pixels: pixels), format: base.format, hasAlpha: alpha)
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
