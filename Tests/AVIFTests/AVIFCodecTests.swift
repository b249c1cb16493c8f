import Foundation
import ImagoAVIF
import ImagoCore
import Testing

/// AVIF decoding compared with avifdec's pixels; lossless files must match exactly. Tolerance for lossy files: 3
/// per channel, the most two reference decoders differ by on these fixtures (Scripts/compare-reference-decoders.py:
/// Pillow 13's AVIF against avifdec is exact on 8-bit files, 2 and 3 apart on the 10- and 12-bit ones, where each
/// rounds to 8 bits its own way; heif-convert against avifdec is within 1, the `.libheif` fixtures).
@Suite struct AVIFCodecTests {
    static let tolerance = 3

    @Test(arguments: ["still", "alpha", "depth10", "depth12", "icc"])
    func decodesLikeAvifdec(_ name: String) throws {
        // The stored pixels (`.ignore`): avifdec does not convert the ICC file's either (AVIFColorTests does).
        let image = try AVIFCodec().decode(try Fixture.data(name + ".avif"), options: Fixture.storedPixels)
        let reference = try Fixture.reference(name + ".avifdec")
        #expect(Fixture.maxDelta(image.raster, reference) <= Self.tolerance)
        #expect(image.format == .avif && image.frames.count == 1 && image.orientation == .up)
        #expect(image.hasAlpha == (name == "alpha"))
    }

    @Test func referenceDecodersAgreeWithinTheTolerance() throws {
        for name in ["still", "alpha", "depth10", "depth12", "icc"] {
            let avifdec = try Fixture.reference(name + ".avifdec")
            let libheif = try Fixture.reference(name + ".libheif")
            let raster = try Raster(width: avifdec.width, height: avifdec.height, pixels: avifdec.pixels)
            #expect(Fixture.maxDelta(raster, libheif) <= 1, "\(name)")
        }
    }

    @Test func losslessDecodesExactly() throws {
        let image = try AVIFCodec().decode(try Fixture.data("lossless.avif"))
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("source-rgb")) == 0)
    }

    @Test func appliesIrotAndImirAndReportsUpright() throws {
        // irot 1 (a quarter turn anticlockwise) then imir 1 (left-right): EXIF orientation 7. libheif applies it
        // too; avifdec 0.11 does not, so the reference is libheif's.
        let image = try AVIFCodec().decode(try Fixture.data("rotated.avif"))
        #expect(image.width == 48 && image.height == 64 && image.orientation == .up)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("rotated.libheif")) == 0)
    }

    @Test func cropsToTheCleanApertureBeforeTurning() throws {
        // clap 40x32 at (8, 4), then irot 3 (three quarter turns anticlockwise): 32x40, as libheif shows it.
        let image = try AVIFCodec().decode(try Fixture.data("cropped.avif"))
        #expect(image.width == 32 && image.height == 40 && image.orientation == .up)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("cropped.libheif")) == 0)
        let source = try Fixture.reference("source-rgb")
        let expected = try Raster(width: source.width, height: source.height, pixels: source.pixels)
            .cropped(x: 8, y: 4, width: 40, height: 32).oriented(.right)
        #expect(image.raster == expected)
    }

    @Test func decodesTheSequenceWithDurations() throws {
        let image = try AVIFCodec().decode(try Fixture.data("anim.avif"))
        #expect(image.frames.count == 3 && image.loopCount == 0)
        #expect(image.durations.map { ($0 * 1000).rounded() } == [100, 200, 300])
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("anim.avifdec")) <= Self.tolerance)
        // Frames 1 and 2 are green and blue with a white band lower down.
        for (index, expected) in [(1, RGBA(30, 200, 40)), (2, RGBA(40, 60, 220))] {
            let pixel = image.frames[index].raster[30, 22]
            #expect(abs(Int(pixel.r) - Int(expected.r)) < 12 && abs(Int(pixel.g) - Int(expected.g)) < 12)
            #expect(abs(Int(pixel.b) - Int(expected.b)) < 12, "frame \(index): \(pixel)")
        }
        let first = try AVIFCodec().decode(try Fixture.data("anim.avif"), options: DecodeOptions(frames: .first))
        #expect(first.frames.count == 1 && first.raster == image.raster)
    }

    @Test func keepsTheICCProfile() throws {
        let image = try AVIFCodec().decode(try Fixture.data("icc.avif"), options: DecodeOptions(colorProfiles: .keep))
        let profile = try #require(image.iccProfile)
        #expect(profile.count > 128 && profile[36..<40].elementsEqual("acsp".utf8))
        #expect(try AVIFCodec().decode(try Fixture.data("still.avif")).iccProfile == nil)
    }

    @Test func refusesAHugeDeclaredSizeBeforeDecoding() throws {
        let huge = Fixture.declaring(width: 65535, height: 65535, in: try Fixture.data("still.avif"))
        #expect(huge != (try Fixture.data("still.avif")))
        #expect { try AVIFCodec().decode(huge) } throws: { ($0 as? ImagoError)?.kind == .limitExceeded }
    }

    /// many-samples.avif (1.4 KB, Scripts/make-qa-fixtures.py) declares 10,000 one-byte samples (100 chunks at one
    /// offset): libavif's parse builds an entry for each, so its frame-count ceiling must be ours before parsing
    /// (ten million such samples took 1.4 GB and 3.7 s before the check after the parse). Even for the first frame
    /// only, the file is refused as too many frames rather than parsed.
    @Test func refusesTooManyDeclaredFramesDuringTheParse() throws {
        let data = try Fixture.data("many-samples.avif")
        for frames in [FrameSelection.all, .first] {
            let options = DecodeOptions(limits: DecodeLimits(maxFrames: 1000), frames: frames)
            #expect {
                try AVIFCodec().decode(data, options: options)
            } throws: { error in
                let error = error as? ImagoError
                return error?.kind == .limitExceeded && error?.reason.contains("too many frames") == true
            }
        }
    }

    /// lying-size.avif (417 B) declares 64x48 in its `ispe` but its AV1 frame is 1200x1000: dav1d must be held to
    /// the pixel limit too, or it decodes the whole frame before libavif crops it to the declared size.
    @Test func holdsTheAV1DecoderToThePixelLimit() throws {
        let lying = try Fixture.data("lying-size.avif")
        #expect(try AVIFCodec().decode(lying).raster.width == 64)
        #expect {
            try AVIFCodec().decode(lying, options: DecodeOptions(limits: DecodeLimits(maxPixels: 10_000)))
        } throws: { $0 is ImagoError }
    }

    @Test func sniffsAVIFBrandsAndLeavesHEICAlone() {
        func header(_ major: String, _ compatible: [String]) -> Data {
            let brands = Data(([major, "\0\0\0\0"] + compatible).joined().utf8)
            return Data([0, 0, 0, UInt8(8 + brands.count)]) + Data("ftyp".utf8) + brands
        }
        let codec = AVIFCodec()
        #expect(codec.canDecode(header("avif", ["mif1", "miaf"])))
        #expect(codec.canDecode(header("avis", ["msf1", "iso8", "mif1"])))
        #expect(codec.canDecode(header("mif1", ["mif1", "avif"])))
        #expect(!codec.canDecode(header("heic", ["mif1", "heic"])))
        #expect(!codec.canDecode(header("heic", ["mif1", "avif"])))
        #expect(!codec.canDecode(header("mif1", ["mif1", "heic"])))
        #expect(!codec.canDecode(header("isom", ["mp41"])))
        #expect(!codec.canDecode(Data("\0\0\0\u{1C}ftypavif".utf8).prefix(8)))
    }

    @Test func encodesASequenceFromAnAnimation() throws {
        let source = try AVIFCodec().decode(try Fixture.data("anim.avif"))
        let data = try AVIFCodec(speed: 10).encode(source)
        let again = try AVIFCodec().decode(data)
        #expect(again.frames.count == 3)
        #expect(again.durations.map { ($0 * 1000).rounded() } == [100, 200, 300])
        let still = try AVIFCodec(speed: 10).encode(source, options: EncodeOptions(allFrames: false))
        #expect(try AVIFCodec().decode(still).frames.count == 1)
    }
}
