import Foundation
import ImagoCore
import ImagoHEIF
import Testing

/// Embedded ICC profiles (colord's Adobe RGB (1998); Scripts/make_new_format_icc_fixtures.py) handled as the other
/// codecs handle them. References: Pillow's `profileToProfile` (perceptual, lcms2) of heif-convert's pixels (same
/// libheif, so only the colour conversion is
/// compared). Tolerance ±2, the ICC issue's. The "lossless" HEIC is within 1 of its source (libheif's GBR rounding),
/// and near the edge of sRGB's gamut the conversion turns that 1 into 10, so its reference is heif-convert's
/// pixels converted too.
@Suite struct HEIFColorTests {
    static let keep = DecodeOptions(colorProfiles: .keep)
    static let description = "Compatible with Adobe RGB (1998)"

    @Test(arguments: ["icc-lossless", "icc"])
    func convertsToSRGBLikePillow(_ name: String) throws {
        let data = try Fixture.data(name + ".heic")
        let image = try HEIFCodec().decode(data)
        let delta = Fixture.maxDelta(image.raster, try Fixture.reference(name + ".srgb"))
        #expect(delta <= 2, "\(name): \(delta)")
        #expect(image.iccProfile == nil && image.colorProfileDescription == Self.description && image.warnings.isEmpty)
        // The conversion moved the pixels: Adobe RGB's full red is well outside sRGB.
        let stored = try HEIFCodec().decode(data, options: Fixture.storedPixels)
        #expect(Fixture.maxDelta(image.raster, stored.raster) > 20)
        #expect(stored.iccProfile == nil && stored.colorProfileDescription == nil)
    }

    @Test func keepsThePixelsAndTheProfileThroughTheEncoder() throws {
        let data = try Fixture.data("icc-lossless.heic")
        let kept = try HEIFCodec().decode(data, options: Self.keep)
        let profile = try #require(kept.iccProfile)
        #expect(profile.count == 18604 && kept.colorProfileDescription == Self.description)
        #expect(kept.raster == (try HEIFCodec().decode(data, options: Fixture.storedPixels)).raster)
        let encoded = try HEIFCodec(speed: 9).encode(kept, options: EncodeOptions(lossless: true))
        let again = try HEIFCodec().decode(encoded, options: Self.keep)
        // Lossless HEIC is within 1 (libheif's GBR rounding); the profile comes back byte for byte.
        #expect(again.iccProfile == profile && Fixture.maxDelta(again.raster, kept.raster) <= 1)
        #expect(try HEIFCodec().decode(encoded).colorProfileDescription == Self.description)
        // Without a kept profile nothing is embedded.
        let plain = try HEIFCodec(speed: 9).encode(try HEIFCodec().decode(data))
        #expect(try HEIFCodec().decode(plain, options: Self.keep).iccProfile == nil)
    }

    @Test func ignoresAMalformedProfileWithAWarning() throws {
        let data = try Fixture.data("icc-malformed.heic")
        let image = try HEIFCodec().decode(data)
        // lcms2 opens the header but cannot build a transform from the broken tag table.
        #expect(image.warnings.count == 1 && image.warnings.allSatisfy { $0.contains("ICC profile ignored") })
        #expect(image.iccProfile == nil && image.colorProfileDescription == nil)
        #expect(image.raster == (try HEIFCodec().decode(data, options: Fixture.storedPixels)).raster)
        #expect(try HEIFCodec().decode(data, options: Self.keep).iccProfile == nil)
        #expect { try HEIFCodec().decode(data, options: DecodeOptions(strict: true)) } throws: {
            ($0 as? ImagoError)?.kind == .decodingFailed(format: .heic)
        }
    }
}
