import Foundation
import ImagoAVIF
import ImagoCore
import Testing

/// Embedded ICC profiles (colord's Adobe RGB (1998); Scripts/make_new_format_icc_fixtures.py) handled as the other
/// codecs handle them. References: Pillow's `profileToProfile` (perceptual, lcms2) of the source pixels for the
/// lossless file, and of avifdec's pixels for the lossy one (same libavif, so only the colour conversion is
/// compared). Tolerance ±2, the ICC issue's.
@Suite struct AVIFColorTests {
    static let keep = DecodeOptions(colorProfiles: .keep)
    static let description = "Compatible with Adobe RGB (1998)"

    @Test(arguments: ["icc-lossless", "icc"])
    func convertsToSRGBLikePillow(_ name: String) throws {
        let data = try Fixture.data(name + ".avif")
        let image = try AVIFCodec().decode(data)
        let delta = Fixture.maxDelta(image.raster, try Fixture.reference(name + ".srgb"))
        #expect(delta <= 2, "\(name): \(delta)")
        #expect(image.iccProfile == nil && image.colorProfileDescription == Self.description && image.warnings.isEmpty)
        // The conversion moved the pixels: Adobe RGB's full red is well outside sRGB.
        let stored = try AVIFCodec().decode(data, options: Fixture.storedPixels)
        #expect(Fixture.maxDelta(image.raster, stored.raster) > 20)
        #expect(stored.iccProfile == nil && stored.colorProfileDescription == nil)
    }

    @Test func keepsThePixelsAndTheProfileThroughTheEncoder() throws {
        let data = try Fixture.data("icc-lossless.avif")
        let kept = try AVIFCodec().decode(data, options: Self.keep)
        let profile = try #require(kept.iccProfile)
        #expect(profile.count == 18604 && kept.colorProfileDescription == Self.description)
        #expect(kept.raster == (try AVIFCodec().decode(data, options: Fixture.storedPixels)).raster)
        let encoded = try AVIFCodec(speed: 10).encode(kept, options: EncodeOptions(lossless: true))
        let again = try AVIFCodec().decode(encoded, options: Self.keep)
        #expect(again.iccProfile == profile && again.raster == kept.raster)
        // Decoded by default, the re-encoded file converts exactly as the original does.
        #expect(try AVIFCodec().decode(encoded).raster == (try AVIFCodec().decode(data)).raster)
        // Without a kept profile nothing is embedded.
        let plain = try AVIFCodec(speed: 10).encode(try AVIFCodec().decode(data))
        #expect(try AVIFCodec().decode(plain, options: Self.keep).iccProfile == nil)
    }

    @Test func ignoresAMalformedProfileWithAWarning() throws {
        let data = try Fixture.data("icc-malformed.avif")
        let image = try AVIFCodec().decode(data)
        // lcms2 opens the header but cannot build a transform from the broken tag table.
        #expect(image.warnings.count == 1 && image.warnings.allSatisfy { $0.contains("ICC profile ignored") })
        #expect(image.iccProfile == nil && image.colorProfileDescription == nil)
        #expect(image.raster == (try AVIFCodec().decode(data, options: Fixture.storedPixels)).raster)
        #expect(try AVIFCodec().decode(data, options: Self.keep).iccProfile == nil)
        #expect { try AVIFCodec().decode(data, options: DecodeOptions(strict: true)) } throws: {
            ($0 as? ImagoError)?.kind == .decodingFailed(format: .avif)
        }
    }
}
