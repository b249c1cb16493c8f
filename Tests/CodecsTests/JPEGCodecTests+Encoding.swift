import Foundation
import ImagoCodecs
import ImagoCore
import ImagoTestSupport
import Testing

/// JPEG has no alpha: transparent pixels are composited onto `EncodeOptions.background`.
extension JPEGCodecTests {
    /// The cells of the alpha fixture after a JPEG round trip with `options`.
    func alphaRoundTrip(_ options: EncodeOptions) throws -> Raster {
        let image = DecodedImage(raster: try AlphaFixtures.raster(), format: .png)
        return try codec.decode(try codec.encode(image, options: options)).raster
    }

    @Test func transparencyIsFlattenedOntoWhiteByDefault() throws {
        let decoded = try alphaRoundTrip(EncodeOptions(quality: 95))
        let expected: [AlphaFixtures.Cell: RGBA] = [
            .transparentGreen: RGBA(255, 255, 255), .halfBlue: RGBA(127, 127, 255),
            .transparentBlack: RGBA(255, 255, 255), .opaqueRed: RGBA(255, 0, 0),
        ]
        let wrong = AlphaFixtures.mismatches(in: decoded, expected: expected, tolerance: 6)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func transparencyIsFlattenedOntoTheBackgroundAsked() throws {
        let decoded = try alphaRoundTrip(EncodeOptions(quality: 95, background: RGBColor(32, 64, 192)))
        // 50 % blue over (32, 64, 192): (128 * (0, 0, 255) + 127 * (32, 64, 192)) / 255, rounded.
        let expected: [AlphaFixtures.Cell: RGBA] = [
            .transparentGreen: RGBA(32, 64, 192), .halfBlue: RGBA(16, 32, 224),
            .transparentBlack: RGBA(32, 64, 192), .opaqueRed: RGBA(255, 0, 0),
        ]
        let wrong = AlphaFixtures.mismatches(in: decoded, expected: expected, tolerance: 6)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func encodersWithAlphaKeepItWhateverTheBackground() throws {
        let image = DecodedImage(raster: try AlphaFixtures.raster(), format: .png)
        let options = EncodeOptions(lossless: true, background: .black)
        let encoders: [any ImageEncoder & ImageDecoder] = [PNGCodec(), WebPCodec()]
        for codec in encoders {
            let decoded = try codec.decode(try codec.encode(image, options: options))
            // WebP's lossless mode may rewrite the colour of fully transparent pixels; the visible ones are exact.
            for cell in [AlphaFixtures.Cell.halfBlue, .opaqueRed] {
                let centres = AlphaFixtures.centres(of: cell, in: decoded.raster)
                #expect(centres.allSatisfy { $0 == cell.pixel }, "\(codec.format)")
            }
            #expect(AlphaFixtures.centres(of: .transparentGreen, in: decoded.raster).allSatisfy { $0.a == 0 })
        }
    }
}
