import Foundation
import Testing

@testable import ImagoCore

@Suite struct RGBColorTests {
    @Test func parsesSixHexDigitsAndNothingElse() {
        #expect(RGBColor(hex: "ff8000") == RGBColor(255, 128, 0))
        #expect(RGBColor(hex: "00FFaa") == RGBColor(0, 255, 170))
        for bad in ["", "fff", "#ffffff", "fffffff", "+fffff", "gg0000", "ff 000", "１２３４５６"] {
            #expect(RGBColor(hex: bad) == nil, "\(bad)")
        }
        #expect(RGBColor(255, 128, 0).hex == "ff8000")
        #expect(RGBColor(hex: RGBColor(1, 2, 3).hex) == RGBColor(1, 2, 3))
    }

    @Test func theDefaultBackgroundIsWhiteAndPartOfTheEncodingKey() {
        #expect(EncodeOptions.default.background == .white)
        var black = EncodeOptions.default
        black.background = .black
        #expect(black.cacheKeyComponent != EncodeOptions.default.cacheKeyComponent)
        #expect(black.cacheKeyComponent.contains("bg=000000"))
    }
}
