import Foundation
import ImagoCore
import ImagoJXL
import Testing

/// JPEG XL decoding compared with djxl's pixels (libjxl 0.7, the Debian reference). Lossless files must equal their
/// source; lossy and 16-bit ones must be within 1 of djxl, what a second decoder (pillow-jxl-plugin) differs from
/// djxl by on them (Scripts/compare-reference-decoders.py).
@Suite struct JXLCodecTests {
    @Test(arguments: ["lossless", "container", "icc"])
    func losslessDecodesToItsSource(_ name: String) throws {
        // The stored pixels (`.ignore`): djxl does not convert the ICC file's either (JXLColorTests does).
        let image = try JXLCodec().decode(try Fixture.data(name + ".jxl"), options: Fixture.storedPixels)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("source-rgb")) == 0)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference(name + ".djxl")) == 0)
        #expect(image.format == .jxl && image.frames.count == 1 && !image.hasAlpha && image.orientation == .up)
    }

    @Test func alphaDecodesToItsSource() throws {
        let image = try JXLCodec().decode(try Fixture.data("alpha.jxl"))
        #expect(image.hasAlpha)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("source-rgba")) == 0)
    }

    @Test func lossyDecodesLikeDjxl() throws {
        let image = try JXLCodec().decode(try Fixture.data("lossy.jxl"))
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("lossy.djxl")) <= 1)
    }

    @Test func reducesSixteenBitsToEight() throws {
        let image = try JXLCodec().decode(try Fixture.data("depth16.jxl"))
        let delta = Fixture.maxDelta(image.raster, try Fixture.reference("depth16.djxl"))
        #expect(delta <= 1, "\(delta)")
    }

    @Test func decodesTheAnimation() throws {
        let image = try JXLCodec().decode(try Fixture.data("anim.jxl"))
        #expect(image.frames.count == 3 && image.loopCount == 0)
        #expect(image.durations.map { ($0 * 1000).rounded() } == [100, 200, 300])
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("anim.djxl")) == 0)
        #expect(image.frames[1].raster[0, 0] == RGBA(30, 200, 40) && image.frames[2].raster[0, 0] == RGBA(40, 60, 220))
        let first = try JXLCodec().decode(try Fixture.data("anim.jxl"), options: DecodeOptions(frames: .first))
        #expect(first.frames.count == 1 && first.raster == image.raster)
    }

    @Test func keepsAnEmbeddedICCProfileOnly() throws {
        let keep = DecodeOptions(colorProfiles: .keep)
        let profile = try #require(try JXLCodec().decode(try Fixture.data("icc.jxl"), options: keep).iccProfile)
        #expect(profile.count > 128 && profile[36..<40].elementsEqual("acsp".utf8))
        #expect(try JXLCodec().decode(try Fixture.data("lossless.jxl"), options: keep).iccProfile == nil)
    }

    @Test(arguments: ["lossless.jxl", "container.jxl", "anim.jxl", "lossy.jxl"])
    func aTruncatedFileIsReportedAsTruncated(_ name: String) throws {
        let data = try Fixture.data(name)
        for length in [data.count / 4, data.count / 2, data.count * 3 / 4] {
            let error = #expect(throws: ImagoError.self, "\(name) cut to \(length) bytes") {
                try JXLCodec().decode(data.prefix(length))
            }
            #expect(error?.kind == .decodingFailed(format: .jxl))
            #expect(error?.reason.contains("truncated") == true, "\(name) at \(length): \(String(describing: error))")
        }
    }

    @Test func refusesAHugeDeclaredSizeBeforeDecoding() throws {
        #expect { try JXLCodec().decode(JXLFixtures.hugeCodestream) } throws: {
            ($0 as? ImagoError)?.kind == .limitExceeded
        }
        let frames = DecodeOptions(limits: DecodeLimits(maxFrames: 2))
        #expect { try JXLCodec().decode(try Fixture.data("anim.jxl"), options: frames) } throws: {
            ($0 as? ImagoError)?.kind == .limitExceeded
        }
    }

    /// many-frames.jxl: 20 frames of 200x200 (an APNG through `cjxl -e 1`). The whole animation is checked before
    /// the first frame is decoded, so the refusal names all 20 frames; frame by frame, the 11th was refused after
    /// ten had been decoded (a 32 KB file of 1000x1000 frames took 1.6 GB and half a minute that way).
    @Test func checksTheWholeAnimationBeforeDecodingAFrame() throws {
        let data = try Fixture.data("many-frames.jxl")
        let limits = DecodeLimits(maxTotalPixels: 200 * 200 * 10)
        #expect {
            try JXLCodec().decode(data, options: DecodeOptions(limits: limits))
        } throws: { error in
            let error = error as? ImagoError
            return error?.kind == .limitExceeded && error?.reason.contains("20 frames of 200x200") == true
        }
        #expect {
            try JXLCodec().decode(data, options: DecodeOptions(limits: DecodeLimits(maxFrames: 5)))
        } throws: { ($0 as? ImagoError)?.reason.contains("too many frames: 6 exceeds the limit of 5") == true }
        #expect(try JXLCodec().decode(data).frames.count == 20)
        let first = try JXLCodec().decode(data, options: DecodeOptions(limits: limits, frames: .first))
        #expect(first.frames.count == 1)
    }

    @Test func sniffsCodestreamAndContainer() throws {
        let codec = JXLCodec()
        #expect(codec.canDecode(try Fixture.data("lossless.jxl").prefix(32)))
        #expect(codec.canDecode(try Fixture.data("container.jxl").prefix(32)))
        #expect(codec.canDecode(Data([0xFF, 0x0A, 0xFA])))
        #expect(!codec.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(!codec.canDecode(Data("\0\0\0\u{1C}ftypavif".utf8)))
        #expect(!codec.canDecode(Data()))
    }

    @Test func encodesLosslessLossyAndAnimated() throws {
        let source = try JXLCodec().decode(try Fixture.data("alpha.jxl"))
        let lossless = try JXLCodec(effort: 3).encode(source, options: EncodeOptions(lossless: true))
        #expect(try JXLCodec().decode(lossless).raster == source.raster)
        let lossy = try JXLCodec(effort: 3).encode(source, options: EncodeOptions(quality: 40))
        #expect(lossy.count < lossless.count)
        var animation = try JXLCodec().decode(try Fixture.data("anim.jxl"))
        animation.loopCount = 3
        let again = try JXLCodec().decode(
            try JXLCodec(effort: 3).encode(animation, options: EncodeOptions(lossless: true)))
        #expect(again.frames == animation.frames && again.loopCount == 3)
    }
}

enum JXLFixtures {
    /// A bare codestream header declaring 65535 x 65535 (SizeHeader with 32-bit dimensions), then nothing.
    static let hugeCodestream: Data = {
        // Bits, least significant first: small=0, height_minus_1 selector 3 (30 bits), value, ratio 0,
        // width_minus_1 selector 3 (30 bits), value.
        var bits: [Bool] = []
        func put(_ value: UInt32, _ count: Int) { for bit in 0..<count { bits.append(value >> UInt32(bit) & 1 == 1) } }
        put(0, 1)
        put(3, 2)
        put(65534, 30)
        put(0, 3)
        put(3, 2)
        put(65534, 30)
        put(1, 1)  // all_default image metadata: the basic info is complete here, before any pixel
        put(0, 64)
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for (index, bit) in bits[start..<Swift.min(start + 8, bits.count)].enumerated() where bit {
                byte |= 1 << UInt8(index)
            }
            bytes.append(byte)
        }
        return Data(bytes)
    }()
}
