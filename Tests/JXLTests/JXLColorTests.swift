import Foundation
import ImagoCore
import ImagoJXL
import Testing

/// Embedded ICC profiles (colord's Adobe RGB (1998); Scripts/make_new_format_icc_fixtures.py). The lossless file
/// keeps its stored pixels in the profile and is converted by lcms2, within ±2 of Pillow's `profileToProfile`
/// (perceptual) of the source. A lossy file is coded in XYB: there are no stored pixels in the profile, libjxl
/// renders sRGB itself. The reference is Pillow's conversion of djxl's rendering, which libjxl 0.7 makes in linear
/// sRGB (with a profile saying so) for such files: 8 linear bits are coarse in the shadows (the first step above
/// black is 13 sRGB steps), so the tolerance is 8, the most the two differ by here (measured: 7).
@Suite struct JXLColorTests {
    static let keep = DecodeOptions(colorProfiles: .keep)
    static let description = "Compatible with Adobe RGB (1998)"

    @Test func convertsTheLosslessFileToSRGBLikePillow() throws {
        let data = try Fixture.data("icc.jxl")
        let image = try JXLCodec().decode(data)
        let delta = Fixture.maxDelta(image.raster, try Fixture.reference("icc.srgb"))
        #expect(delta <= 2, "\(delta)")
        #expect(image.iccProfile == nil && image.colorProfileDescription == Self.description && image.warnings.isEmpty)
        let stored = try JXLCodec().decode(data, options: Fixture.storedPixels)
        #expect(Fixture.maxDelta(image.raster, stored.raster) > 20)
        #expect(stored.iccProfile == nil && stored.colorProfileDescription == nil)
    }

    @Test func rendersTheLossyFileInSRGB() throws {
        let image = try JXLCodec().decode(try Fixture.data("icc-lossy.jxl"))
        let delta = Fixture.maxDelta(image.raster, try Fixture.reference("icc-lossy.srgb"))
        #expect(delta <= 8, "\(delta)")
        #expect(image.iccProfile == nil && image.colorProfileDescription == Self.description)
        // Nothing to keep: libjxl gives sRGB pixels under every setting, and names no profile when ignoring.
        let kept = try JXLCodec().decode(try Fixture.data("icc-lossy.jxl"), options: Self.keep)
        #expect(kept.iccProfile == nil && kept.raster == image.raster)
        let ignored = try JXLCodec().decode(try Fixture.data("icc-lossy.jxl"), options: Fixture.storedPixels)
        #expect(ignored.colorProfileDescription == nil && ignored.raster == image.raster)
    }

    @Test func keepsThePixelsAndTheProfileThroughTheEncoder() throws {
        let data = try Fixture.data("icc.jxl")
        let kept = try JXLCodec().decode(data, options: Self.keep)
        let profile = try #require(kept.iccProfile)
        #expect(kept.colorProfileDescription == Self.description)
        #expect(kept.raster == (try JXLCodec().decode(data, options: Fixture.storedPixels)).raster)
        let encoded = try JXLCodec(effort: 3).encode(kept, options: EncodeOptions(lossless: true))
        let again = try JXLCodec().decode(encoded, options: Self.keep)
        // libjxl stores the profile compressed and hands back the same bytes.
        #expect(again.iccProfile == profile && again.raster == kept.raster)
        #expect(try JXLCodec().decode(encoded).raster == (try JXLCodec().decode(data)).raster)
        // Lossy with a kept profile: XYB from that profile, so the default decode still shows sRGB alike.
        let lossy = try JXLCodec(effort: 3).encode(kept, options: EncodeOptions(quality: 95))
        let shown = try JXLCodec().decode(lossy)
        #expect(shown.colorProfileDescription == Self.description)
        // Compared on average: the fixture's blue sawtooth has edges a lossy coder blurs by up to 100.
        let reference = try JXLCodec().decode(data).raster.pixels
        let error = zip(shown.raster.pixels, reference).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        let mean = Double(error) / Double(reference.count)
        #expect(mean < 3, "\(mean)")
        let plain = try JXLCodec(effort: 3).encode(try JXLCodec().decode(data), options: EncodeOptions(lossless: true))
        #expect(try JXLCodec().decode(plain, options: Self.keep).iccProfile == nil)
    }

    @Test func refusesToEmbedAProfileLibjxlCannotParse() throws {
        // cjxl refuses a malformed profile too, so no JPEG XL file carries one: the encoder's refusal is the case.
        var image = try JXLCodec().decode(try Fixture.data("lossless.jxl"))
        image.iccProfile = Data(repeating: 7, count: 200)
        #expect { try JXLCodec().encode(image) } throws: {
            ($0 as? ImagoError)?.kind == .encodingFailed(format: .jxl)
        }
    }
}
