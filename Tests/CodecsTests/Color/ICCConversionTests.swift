import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// Embedded profiles converted to sRGB, against Pillow's `profileToProfile` (perceptual): ±2 for RGB and grey,
/// ±3 for CMYK; untagged and sRGB-tagged controls unchanged; a malformed profile ignored with a warning.
@Suite struct ICCConversionTests {
    @Test func fixturesWereGenerated() {
        #expect(ICCFixtures.entries.count >= 20, "run Scripts/make_icc_fixtures.py")
    }

    @Test(arguments: ICCFixtures.entries)
    func matchesPillowsConversion(_ entry: ICCFixtures.Entry) throws {
        let image = try ICCFixtures.decode(entry.file)
        let expected = try PNGCodec().decode(ICCFixtures.data(entry.reference))
        #expect(expected.iccProfile == nil && expected.colorProfileDescription == nil)
        let (delta, alphaEqual) = ICCFixtures.difference(image.raster, expected.raster)
        print("[icc] \(entry.file): max Δ \(delta) (tolerance \(entry.tolerance)): \(entry.what)")
        #expect(delta <= entry.tolerance, "\(entry.what): max Δ \(delta)")
        #expect(alphaEqual, "\(entry.what): alpha must pass through unchanged")
        #expect(image.iccProfile == nil, "converted to sRGB, so no profile is carried")
    }

    @Test(arguments: ["untagged.jpg", "untagged.png", "untagged.webp", "srgb.jpg", "srgb.png", "srgb.webp"])
    func controlsComeBackExactlyAsStored(_ file: String) throws {
        let converted = try ICCFixtures.decode(file)
        let stored = try ICCFixtures.decode(file, options: DecodeOptions(colorProfiles: .ignore))
        #expect(converted.raster == stored.raster)
        #expect(converted.warnings.isEmpty)
        let description = file.hasPrefix("srgb") ? "Artifex Software sRGB ICC Profile" : nil
        #expect(converted.colorProfileDescription == description)
    }

    @Test(arguments: ["malformed.jpg", "malformed.png", "malformed.webp"])
    func aMalformedProfileIsIgnoredWithAWarningAndFailsInStrictMode(_ file: String) throws {
        let image = try ICCFixtures.decode(file)
        let stored = try ICCFixtures.decode(file, options: DecodeOptions(colorProfiles: .ignore))
        #expect(image.raster == stored.raster, "the pixels are left as stored")
        #expect(image.warnings.contains { $0.localizedCaseInsensitiveContains("ICC") }, "\(image.warnings)")
        #expect(image.iccProfile == nil)
        #expect(throws: ImagoError.self) { try ICCFixtures.decode(file, options: DecodeOptions(strict: true)) }
    }

    @Test func describesTheEmbeddedProfile() throws {
        #expect(try ICCFixtures.decode("rgb-adobe.jpg").colorProfileDescription == "Compatible with Adobe RGB (1998)")
        #expect(try ICCFixtures.decode("rgb-romm.webp").colorProfileDescription == "Artifex Software ROMMRGB ICC")
        #expect(try ICCFixtures.decode("gray.png").colorProfileDescription == "Gray")
        #expect(try ICCFixtures.decode("cmyk.jpg").colorProfileDescription == "Artifex PS CMYK Profile")
        #expect(try ICCFixtures.decode("untagged.png").colorProfileDescription == nil)
    }

    @Test func cmykWithAProfileDiffersFromTheGenericFormula() throws {
        // The same CMYK samples, with and without lcms2: the profile must actually be used.
        let managed = try ICCFixtures.decode("cmyk.jpg")
        let generic = try ICCFixtures.decode("cmyk.jpg", options: DecodeOptions(colorProfiles: .ignore))
        #expect(ICCFixtures.difference(managed.raster, generic.raster).color > 10)
        #expect(managed.raster.hasTransparency == false)
    }

    /// libjpeg-turbo reassembles the APP2 chunks by their sequence numbers, whatever their order in the file.
    @Test func jpegProfileChunksAreReassembledInOrder() throws {
        let original = [UInt8](try ICCFixtures.data("rgb-adobe.jpg"))
        let profile = try #require(Self.profileBytes(inJPEG: original))
        // Drop the single APP2 chunk and write three, in the file as 3, 1, 2.
        let (start, end) = try #require(Self.app2Range(original))
        var rest = original
        rest.removeSubrange(start..<end)
        let size = (profile.count + 2) / 3
        let parts = stride(from: 0, to: profile.count, by: size).map {
            Array(profile[$0..<min($0 + size, profile.count)])
        }
        #expect(parts.count == 3)
        let chunks = parts.enumerated().map { index, part -> [UInt8] in
            let length = 2 + 14 + part.count
            return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE\0".utf8)
                + [UInt8(index + 1), 3] + part
        }
        rest.insert(contentsOf: chunks[2] + chunks[0] + chunks[1], at: start)
        let split = try JPEGCodec().decode(Data(rest))
        let whole = try JPEGCodec().decode(Data(original))
        #expect(split.raster == whole.raster)
        #expect(split.colorProfileDescription == whole.colorProfileDescription && whole.colorProfileDescription != nil)
        let kept = try JPEGCodec().decode(Data(rest), options: DecodeOptions(colorProfiles: .keep))
        #expect(kept.iccProfile.map { [UInt8]($0) } == profile)
    }

    /// The byte range of the first APP2 ICC_PROFILE segment (marker included).
    static func app2Range(_ jpeg: [UInt8]) -> (Int, Int)? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if jpeg[offset + 1] == 0xE2, jpeg[(offset + 4)..<(offset + 15)].elementsEqual("ICC_PROFILE".utf8) {
                return (offset, offset + 2 + length)
            }
            offset += 2 + length
        }
        return nil
    }

    static func profileBytes(inJPEG jpeg: [UInt8]) -> [UInt8]? {
        guard let (start, end) = app2Range(jpeg) else { return nil }
        return Array(jpeg[(start + 18)..<end])
    }
}
