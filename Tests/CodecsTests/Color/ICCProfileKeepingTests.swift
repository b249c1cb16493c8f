import Foundation
import ImagoCodecs
import ImagoCore
import Testing

/// `ColorProfileHandling.keep`: stored pixels plus the profile, embedded again by the PNG, JPEG and WebP encoders.
@Suite struct ICCProfileKeepingTests {
    static let keep = DecodeOptions(colorProfiles: .keep)

    @Test(arguments: ["rgb-adobe.jpg", "rgb-romm.png", "rgba-romm.png", "rgb-adobe.webp"])
    func keepsTheStoredPixelsAndTheProfile(_ file: String) throws {
        let kept = try ICCFixtures.decode(file, options: Self.keep)
        let stored = try ICCFixtures.decode(file, options: DecodeOptions(colorProfiles: .ignore))
        #expect(kept.raster == stored.raster)
        let profile = try #require(kept.iccProfile)
        #expect(ColorManagement.isValidProfile(profile))
        // Converting later gives what converting at decode time gives.
        let later = try ColorManagement.convertedToSRGB(kept)
        #expect(later.raster == (try ICCFixtures.decode(file)).raster)
        #expect(later.iccProfile == nil)
    }

    @Test(arguments: ["gray.jpg", "gray.png", "cmyk.jpg"])
    func greyAndCMYKAreConvertedEvenWhenKeeping(_ file: String) throws {
        let kept = try ICCFixtures.decode(file, options: Self.keep)
        #expect(kept.iccProfile == nil)
        #expect(kept.raster == (try ICCFixtures.decode(file)).raster)
    }

    static let encoders: [(String, any ImageEncoder, EncodeOptions)] = [
        ("png", PNGCodec(), .default), ("jpeg", JPEGCodec(), EncodeOptions(quality: 100)),
        ("webp", WebPCodec(), EncodeOptions(lossless: true)),
    ]

    @Test(arguments: 0..<3)
    func encodersEmbedAKeptProfile(_ index: Int) throws {
        let (name, encoder, options) = Self.encoders[index]
        let kept = try ICCFixtures.decode("rgb-romm.png", options: Self.keep)
        let encoded = try encoder.encode(kept, options: options)
        let again = try ICCFixtures.decode(encoded, options: Self.keep)
        #expect(again.iccProfile == kept.iccProfile, "\(name) embeds the profile byte for byte")
        // A default decode of what was written converts it; for the lossless encoders exactly as the original.
        let converted = try ICCFixtures.decode(encoded)
        #expect(converted.raster == (try ColorManagement.convertedToSRGB(again)).raster, "\(name)")
        if name != "jpeg" {
            #expect(converted.raster == (try ICCFixtures.decode("rgb-romm.png")).raster, "\(name)")
        }
        #expect(converted.colorProfileDescription == "Artifex Software ROMMRGB ICC")
    }

    @Test func encodersWriteNoProfileForSRGBPixels() throws {
        let converted = try ICCFixtures.decode("rgb-romm.png")
        for (name, encoder, options) in Self.encoders {
            let again = try ICCFixtures.decode(try encoder.encode(converted, options: options), options: Self.keep)
            #expect(again.iccProfile == nil && again.colorProfileDescription == nil, "\(name)")
        }
    }
}
