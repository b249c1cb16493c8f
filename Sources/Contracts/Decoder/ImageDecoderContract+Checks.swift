import Foundation
import ImagoCore

extension ImageDecoderContract {
    func claimsOwnSamples(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            // Shorter prefixes must not crash; only the full sniff length must be claimed.
            for length in 0..<ImageFormat.sniffLength { _ = decoder.canDecode(Data(fixture.data.prefix(length))) }
            let header = Data(fixture.data.prefix(ImageFormat.sniffLength))
            try contractRequire(
                decoder.canDecode(header),
                "fixture \"\(fixture.name)\": canDecode is false for its first \(header.count) bytes")
        }
    }

    func claimsNoOtherFormat(_ decoder: any ImageDecoder) throws {
        let claimed = sniffSamples.filter { $0.format != decoder.format && decoder.canDecode($0.header) }
        try contractRequire(
            claimed.isEmpty,
            "canDecode claims bytes of other formats: \(claimed.map { "\"\($0.name)\"" }.joined(separator: ", "))")
    }

    func decodesSamples(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let what = "fixture \"\(fixture.name)\""
            let image = try decode(decoder, fixture.data, .default, what)
            try contractRequire(
                image.width == fixture.width && image.height == fixture.height
                    && image.frames.count == fixture.frameCount,
                "\(what): decoded \(Describe.size(image)), expected \(fixture.width)x\(fixture.height)"
                    + (fixture.frameCount > 1 ? " with \(fixture.frameCount) frames" : ""))
            for frame in image.frames {
                try contractRequire(
                    frame.raster.width == fixture.width && frame.raster.height == fixture.height,
                    "\(what): a frame is \(frame.raster.width)x\(frame.raster.height), not the canvas size")
            }
            try contractRequire(
                image.format == decoder.format, "\(what): image format is \(image.format), expected \(decoder.format)")
            try contractRequire(
                image.hasAlpha || !image.raster.hasTransparency, "\(what): has transparent pixels but hasAlpha is false"
            )
            if let mismatch = fixture.pixels.mismatch(image.raster) { throw ContractFailure("\(what): \(mismatch)") }
        }
    }

    func refusesTruncated(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let count = fixture.data.count
            let points = Set([0, 1, 4, 8, 16, 32, count / 4, count / 2, count * 3 / 4]).filter { $0 < count }.sorted()
            for point in points {
                let what = "fixture \"\(fixture.name)\" cut to \(point) of \(count) bytes"
                do {
                    let image = try decoder.decode(Data(fixture.data.prefix(point)), options: .default)
                    try contractRequire(
                        allowsPartialImages && point > 0,
                        "\(what): decoded \(Describe.size(image)) instead of throwing")
                    try contractRequire(
                        image.width == fixture.width && image.height == fixture.height,
                        "\(what): a partial image must have the full size, decoded \(Describe.size(image))")
                } catch let failure as ContractFailure {
                    throw failure
                } catch {
                    try requireDecodingError(error, what)
                }
            }
        }
    }

    func refusesCorrupt(_ decoder: any ImageDecoder) throws {
        for fixture in fixtures {
            let bytes = [UInt8](fixture.data)
            // Without its signature the bytes are not of this format any more: decoding must throw.
            var unsigned = bytes
            for index in 0..<min(4, unsigned.count) { unsigned[index] ^= 0xFF }
            let what = "fixture \"\(fixture.name)\" with its first bytes inverted"
            do {
                let image = try decoder.decode(Data(unsigned), options: .default)
                throw ContractFailure("\(what): decoded \(Describe.size(image)) instead of throwing")
            } catch let failure as ContractFailure {
                throw failure
            } catch {
                try requireDecodingError(error, what)
            }
            // Damage elsewhere may still decode (to other pixels), but only to an image within the limits.
            for variant in corruptVariants(of: bytes, seed: UInt64(fixture.name.utf8.count)) {
                try decodeSafely(decoder, Data(variant.bytes), fixture, "fixture \"\(fixture.name)\" \(variant.what)")
            }
        }
    }

    /// Damaged copies: every header byte inverted in turn, bytes flipped at random, the second half replaced.
    private func corruptVariants(of bytes: [UInt8], seed: UInt64) -> [(what: String, bytes: [UInt8])] {
        var variants: [(String, [UInt8])] = []
        for index in 4..<min(64, bytes.count) {
            var copy = bytes
            copy[index] ^= 0xFF
            variants.append(("with byte \(index) inverted", copy))
        }
        var random = SeededGenerator(seed: seed)
        for round in 0..<16 where bytes.count > 8 {
            var copy = bytes
            for _ in 0..<8 {
                copy[Int.random(in: 4..<copy.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            variants.append(("with 8 random bytes changed (round \(round))", copy))
        }
        if bytes.count > 16 {
            let half = bytes.count / 2
            variants.append(
                ("with its second half replaced by noise", Array(bytes[..<half]) + random.bytes(bytes.count - half)))
        }
        return variants
    }

    /// Decodes damaged bytes under limits a few times the fixture's size: throwing an `ImagoError` or returning an
    /// image within those limits are both fine.
    private func decodeSafely(_ decoder: any ImageDecoder, _ data: Data, _ fixture: DecoderFixture, _ what: String)
        throws
    {
        let maxPixels = max(fixture.width * fixture.height * 16, 1 << 16)
        let limits = DecodeLimits(maxPixels: maxPixels, maxTotalPixels: maxPixels * max(fixture.frameCount, 1) * 4)
        do {
            let image = try decoder.decode(data, options: DecodeOptions(limits: limits))
            try contractRequire(
                image.frames.allSatisfy { $0.raster.width * $0.raster.height <= maxPixels },
                "\(what): decoded \(Describe.size(image)), over the limit of \(maxPixels) pixels")
        } catch let failure as ContractFailure {
            throw failure
        } catch {
            try requireDecodingError(error, what)
        }
    }

    /// Bad input must give `decodingFailed`, `limitExceeded` or `tooLarge`.
    func requireDecodingError(_ error: any Error, _ what: String) throws {
        guard let error = error as? ImagoError else {
            throw ContractFailure("\(what): threw \(Describe.error(error))")
        }
        switch error.kind {
        case .decodingFailed, .limitExceeded, .tooLarge: return
        default: throw ContractFailure("\(what): threw \(Describe.error(error)), expected decodingFailed")
        }
    }
}
