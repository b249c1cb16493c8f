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

    @Test func cmykIsConvertedEvenWhenKeeping() throws {
        let kept = try ICCFixtures.decode("cmyk.jpg", options: Self.keep)
        #expect(kept.iccProfile == nil)
        #expect(kept.raster == (try ICCFixtures.decode("cmyk.jpg")).raster)
    }

    @Test(arguments: ["gray.jpg", "gray.png"])
    func greyKeepsItsStoredPixelsAndItsGreyProfile(_ file: String) throws {
        let kept = try ICCFixtures.decode(file, options: Self.keep)
        let stored = try ICCFixtures.decode(file, options: DecodeOptions(colorProfiles: .ignore))
        let converted = try ICCFixtures.decode(file)
        // The fixture's profile moves the pixels: keeping and converting are told apart.
        #expect(TestImages.maxDifference(stored.raster, converted.raster) > 3)
        #expect(kept.raster == stored.raster)
        let profile = try #require(kept.iccProfile)
        #expect(ColorManagement.isGrayProfile(profile))
        let later = try ColorManagement.convertedToSRGB(kept)
        #expect(later.raster == converted.raster)
        #expect(later.iccProfile == nil)
    }

    @Test(arguments: ["gray.jpg", "gray.png"])
    func pngAndJPEGWriteAKeptGreyProfileInAGreyFile(_ file: String) throws {
        let kept = try ICCFixtures.decode(file, options: Self.keep)
        let png = try PNGCodec().encode(kept)
        #expect(png[25] == 0, "colour type 0: grey")  // IHDR's colour type byte
        let fromPNG = try ICCFixtures.decode(png, options: Self.keep)
        #expect(fromPNG.iccProfile == kept.iccProfile)
        #expect(fromPNG.raster == kept.raster)

        let jpeg = try JPEGCodec().encode(kept, options: EncodeOptions(quality: 100))
        let fromJPEG = try ICCFixtures.decode(jpeg, options: Self.keep)
        #expect(fromJPEG.iccProfile == kept.iccProfile)
        #expect(TestImages.maxDifference(fromJPEG.raster, kept.raster) <= 2)
        #expect(Self.isGray(fromJPEG.raster))
        #expect(Self.jpegComponents(jpeg) == 1)
    }

    @Test func webPConvertsAKeptGreyProfileToSRGB() throws {
        let kept = try ICCFixtures.decode("gray.png", options: Self.keep)
        let webp = try WebPCodec().encode(kept, options: EncodeOptions(lossless: true))
        let again = try ICCFixtures.decode(webp, options: Self.keep)
        #expect(again.iccProfile == nil)
        #expect(again.raster == (try ICCFixtures.decode("gray.png")).raster)
    }

    @Test func aGreyProfileOnColourPixelsIsConvertedToSRGBBeforeWriting() throws {
        // Pixels a grey profile cannot describe: read as the profile reads them and converted, not written
        // into a grey file with the profile as if they were grey.
        let kept = try ICCFixtures.decode("gray.png", options: Self.keep)
        var coloured = DecodedImage(raster: try TestImages.noise(width: 8, height: 8, seed: 3), format: .png)
        coloured.iccProfile = kept.iccProfile
        let expected = try ColorManagement.convertedToSRGB(coloured)
        let fromPNG = try ICCFixtures.decode(try PNGCodec().encode(coloured), options: Self.keep)
        #expect(fromPNG.iccProfile == nil)
        #expect(fromPNG.raster == expected.raster)
        let fromJPEG = try ICCFixtures.decode(
            try JPEGCodec().encode(coloured, options: EncodeOptions(quality: 100)), options: Self.keep)
        #expect(fromJPEG.iccProfile == nil)
        #expect(TestImages.maxDifference(fromJPEG.raster, expected.raster) <= 16)
    }

    static func isGray(_ raster: Raster) -> Bool {
        let pixels = raster.pixels
        return stride(from: 0, to: pixels.count, by: 4).allSatisfy { (index: Int) -> Bool in
            let (r, g, b) = (pixels[index], pixels[index + 1], pixels[index + 2])
            return r == g && g == b
        }
    }

    /// The component count of a baseline JPEG's SOF0.
    static func jpegComponents(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 { return Int(bytes[index + 9]) }
            index += 2 + length
        }
        return nil
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
