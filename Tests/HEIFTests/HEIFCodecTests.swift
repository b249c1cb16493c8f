import Foundation
import ImagoCore
import ImagoHEIF
import Testing

/// HEIC decoding compared with heif-convert's pixels (libheif 1.15 with libde265, the Debian reference). Our
/// decoder is the same libheif with the same RGBA conversion, so the pixels must match exactly. (A second decoder,
/// pillow-heif's libheif 1.23 with libde265 1.1.3, is 1 apart on 8-bit files and up to 3 on 10/12-bit ones:
/// Scripts/compare-reference-decoders.py.) The lossless file must match its source within 1 (libheif's RGB to GBR
/// rounding, measured).
@Suite struct HEIFCodecTests {
    @Test(arguments: ["still", "alpha", "depth10", "depth12", "icc", "lossless"])
    func decodesLikeHeifConvert(_ name: String) throws {
        // The stored pixels (`.ignore`): heif-convert does not convert the ICC file's either (HEIFColorTests does).
        let image = try HEIFCodec().decode(try Fixture.data(name + ".heic"), options: Fixture.storedPixels)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference(name + ".libheif")) == 0)
        #expect(image.format == .heic && image.frames.count == 1 && image.orientation == .up)
        #expect(image.hasAlpha == (name == "alpha"))
    }

    @Test func losslessIsCloseToItsSource() throws {
        let image = try HEIFCodec().decode(try Fixture.data("lossless.heic"))
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("source-rgb")) <= 1)
    }

    @Test func appliesTheTransformationsAndReportsUpright() throws {
        // irot/imir written for EXIF orientation 5 (transpose): the stored 64x48 shows as 48x64.
        let image = try HEIFCodec().decode(try Fixture.data("rotated.heic"))
        #expect(image.width == 48 && image.height == 64 && image.orientation == .up)
        #expect(Fixture.maxDelta(image.raster, try Fixture.reference("rotated.libheif")) == 0)
        // It was made by re-encoding still.heic's pixels (a second lossy pass), so compare on average.
        let transposed = try HEIFCodec().decode(try Fixture.data("still.heic")).raster.oriented(.leftMirrored)
        let total = zip(transposed.pixels, image.raster.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(total) / Double(48 * 64 * 4) < 2)
    }

    @Test func usesTheThumbnailForASmallTarget() throws {
        let data = try Fixture.data("thumbnail.heic")
        let full = try HEIFCodec().decode(data)
        #expect(full.width == 256 && full.height == 192)
        let small = try HEIFCodec().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 64, height: 64)))
        #expect(small.width == 96 && small.height == 72)
        // A target the 96x72 thumbnail cannot cover takes the full image.
        let larger = try HEIFCodec().decode(data, options: DecodeOptions(targetSize: PixelSize(width: 120, height: 90)))
        #expect(larger.width == 256)
        let off = try HEIFCodec(usesThumbnails: false).decode(
            data, options: DecodeOptions(targetSize: PixelSize(width: 64, height: 64)))
        #expect(off.width == 256)
    }

    @Test func keepsTheICCProfile() throws {
        let image = try HEIFCodec().decode(try Fixture.data("icc.heic"), options: DecodeOptions(colorProfiles: .keep))
        let profile = try #require(image.iccProfile)
        #expect(profile.count > 128 && profile[36..<40].elementsEqual("acsp".utf8))
        #expect(try HEIFCodec().decode(try Fixture.data("still.heic")).iccProfile == nil)
    }

    @Test func refusesAHugeDeclaredSizeBeforeDecoding() throws {
        let huge = Fixture.declaring(width: 65535, height: 65535, in: try Fixture.data("still.heic"))
        #expect(huge != (try Fixture.data("still.heic")))
        #expect { try HEIFCodec().decode(huge) } throws: { ($0 as? ImagoError)?.kind == .limitExceeded }
    }

    /// lying-size.heic (1.3 KB, Scripts/make-qa-fixtures.py) declares 64x48 in its `ispe` but its HEVC stream is
    /// 1200x1000. libheif 1.15 decodes the stream's size, so a check of the declared size alone let an image 400
    /// times larger than its limit through, at a size the file did not state.
    @Test func refusesAPictureLargerThanItsDeclaredSize() throws {
        let lying = try Fixture.data("lying-size.heic")
        let limits = DecodeLimits(maxPixels: 10_000)
        #expect {
            try HEIFCodec().decode(lying, options: DecodeOptions(limits: limits))
        } throws: { ($0 as? ImagoError)?.kind == .limitExceeded }
        #expect {
            try HEIFCodec().decode(lying)
        } throws: { ($0 as? ImagoError)?.kind == .decodingFailed(format: .heic) }
    }

    @Test func sniffsHEIFBrandsAndLeavesAVIFAlone() {
        func header(_ major: String, _ compatible: [String]) -> Data {
            let brands = Data(([major, "\0\0\0\0"] + compatible).joined().utf8)
            return Data([0, 0, 0, UInt8(8 + brands.count)]) + Data("ftyp".utf8) + brands
        }
        let codec = HEIFCodec()
        #expect(codec.canDecode(header("heic", ["mif1", "heic"])))
        #expect(codec.canDecode(header("heix", ["mif1", "heix"])))
        #expect(codec.canDecode(header("mif1", ["mif1", "heic"])))
        #expect(codec.canDecode(header("msf1", ["msf1", "hevc"])))
        #expect(codec.canDecode(header("heic", ["mif1", "avif"])))
        #expect(!codec.canDecode(header("avif", ["mif1", "miaf"])))
        #expect(!codec.canDecode(header("avis", ["msf1", "avis"])))
        #expect(!codec.canDecode(header("mif1", ["mif1", "avif"])))
        #expect(!codec.canDecode(header("isom", ["mp41", "avc1"])))
        #expect(!codec.canDecode(Data("\0\0\0\u{18}ftyphe".utf8)))
    }

    /// libheif 1.15's RGB to GBR conversion rounds, so "lossless" HEIC is within 1 of the source, not exact
    /// (heif-enc's own lossless output above is off by 1 too).
    @Test func encodesLosslessWithinOne() throws {
        let source = try HEIFCodec().decode(try Fixture.data("still.heic"))
        let data = try HEIFCodec(speed: 9).encode(source, options: EncodeOptions(lossless: true))
        let decoded = try HEIFCodec().decode(data).raster
        let delta = zip(decoded.pixels, source.raster.pixels).reduce(0) { Swift.max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(delta <= 1)
        let lossy = try HEIFCodec(speed: 9).encode(source, options: EncodeOptions(quality: 50))
        #expect(lossy.count < data.count)
    }
}
