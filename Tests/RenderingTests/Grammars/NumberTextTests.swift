import Testing

@testable import ImagoRendering

/// `NumberText`: every valid spelling of a number read to one value and written back in one spelling.
@Suite struct NumberTextTests {
    @Test func spellingsOfOneValueReadAlike() {
        for text in ["5", "05", "005", "5.", "5.0", "5.000", "05.00", "+5"] {
            #expect(NumberText.decimal(text, sign: .plus) == 5, "\(text)")
        }
        for text in ["1.5", "01.5", "1.50", "001.500", "+1.5", "+01.50"] {
            #expect(NumberText.decimal(text, sign: .any) == 1.5, "\(text)")
        }
        #expect(NumberText.decimal(".5") == 0.5)
        #expect(NumberText.decimal("-0.25", sign: .any) == -0.25)
        #expect(NumberText.decimal("-0", sign: .any) == 0)
    }

    @Test func whatIsNotANumberHere() {
        for text in [
            "", ".", "+", "-", "1e3", "1E3", " 5", "5 ", "0x10", "nan", "inf", "1.2.3", "5,0", "٥", "1_000",
            String(repeating: "1", count: 33),
        ] {
            #expect(NumberText.decimal(text, sign: .any) == nil, "\(text)")
        }
        #expect(NumberText.decimal("+5") == nil)
        #expect(NumberText.decimal("-5", sign: .plus) == nil)
    }

    @Test func wholeNumbers() {
        #expect(NumberText.integer("0300") == 300)
        #expect(NumberText.integer("+300", sign: .plus) == 300)
        #expect(NumberText.integer("300.0") == nil)
        #expect(NumberText.integer("300.0", allowsFraction: true) == 300)
        #expect(NumberText.integer("300.", allowsFraction: true) == 300)
        #expect(NumberText.integer("300.5", allowsFraction: true) == nil)
        #expect(NumberText.integer("-4", sign: .any) == -4)
        #expect(NumberText.integer("99999999999999999999") == nil)
    }

    @Test func oneCanonicalSpelling() {
        for text in ["300", "0300", "300.0", "+300", "300.000"] {
            #expect(NumberText.canonical(NumberText.decimal(text, sign: .plus)!) == "300", "\(text)")
        }
        #expect(NumberText.canonical(NumberText.decimal("01.50")!) == "1.5")
        #expect(NumberText.canonical(NumberText.decimal("-0", sign: .any)!) == "0")
        #expect(NumberText.canonical(0.125) == "0.125")
        #expect(NumberText.canonical(-4) == "-4")
    }
}
