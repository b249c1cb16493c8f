import Testing

@testable import ImagoServer

@Suite struct ImageOptionsTests {
    func parse(_ text: String, maxOutputSide: Int = 8192) throws -> ImageOptions {
        try ImageOptions(parsing: Substring(text), maxOutputSide: maxOutputSide)
    }

    /// The answer the server gives a bad options segment: the edge's status for the typed error.
    func failure(_ text: String) -> ServeFailure? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            #expect(error is OptionError, "\(text): \(error)")
            return ServeFailure(answering: error)
        }
    }

    @Test func readsEveryOptionInAnyOrder() throws {
        let options = try parse("q=70,f=webp,frame=2,dpr=2,enlarge=1,fit=cover,h=100,w=200")
        #expect(options.width == 200 && options.height == 100)
        #expect(options.outputWidth == 400 && options.outputHeight == 200)
        #expect(options.fit == .cover && options.enlarge && options.dpr == 2)
        #expect(options.format == .format(.webp) && options.quality == 70 && options.frame == 2)
        #expect(try parse("-") == ImageOptions())
        #expect(try parse("f=auto").format == .auto)
    }

    @Test func canonicalFormIgnoresOrderAndDefaults() throws {
        #expect(try parse("w=10,h=20").canonical == parse("h=20,w=10,fit=contain,enlarge=0").canonical)
        #expect(try parse("w=20").canonical == parse("w=10,dpr=2").canonical)
        #expect(try parse("w=10").canonical != parse("w=10,f=png").canonical)
        #expect(try parse("-").canonical == "w=-,h=-,fit=contain,enlarge=0,f=-,q=-,frame=-")
    }

    @Test func refusesBadItemsNamingThem() {
        let cases = [
            "", "w", "w=", "=5", "w=0", "w=-1", "w=1.5", "w= 3", "w=0x10", "w=99999999999", "h=8193",
            "w=4097,dpr=2", "fit=stretch", "enlarge=yes", "dpr=0", "dpr=4.5", "dpr=.5", "dpr=nan",
            "f=bmp", "f=JPEG", "q=0", "q=101", "frame=-1", "frame=a", "x=1", "w=1,w=2", "w=1,", ",w=1", "w=1;h=2",
        ]
        for text in cases {
            let failure = failure(text)
            #expect(failure?.status == 400, "\(text.debugDescription)")
        }
        #expect(failure("fit=stretch")?.reason.contains("fit=stretch") == true)
        #expect(failure("x=1")?.reason.contains("x=1") == true)
        #expect(failure("w=5000,dpr=2")?.reason.contains("8192") == true)
        // Echoed items stay printable and short.
        let echoed = failure("k\u{0}\r\n" + String(repeating: "z", count: 500) + "=1")?.reason ?? ""
        #expect(!echoed.contains("\r") && !echoed.contains("\n") && echoed.count < 200)
    }

    @Test func readsEverySpellingOfANumberAsItsValue() throws {
        // Issue 35: leading and trailing zeros, a `+`, a whole number with a zero fraction are the same number, and
        // the options (so the cache key) hold the value.
        let cases = [
            ("w=010", "w=10"), ("h=007", "h=7"), ("q=085", "q=85"), ("frame=00", "frame=0"), ("frame=01", "frame=1"),
            ("dpr=02", "dpr=2"), ("dpr=01.5", "dpr=1.5"), ("dpr=1.50", "dpr=1.5"), ("dpr=2.0", "dpr=2"),
            ("w=+10", "w=10"), ("w=10.0", "w=10"), ("w=10.", "w=10"), ("blur=.5", "blur=0.5"),
        ]
        for (text, canonical) in cases {
            let options = try parse("fit=cover," + text)
            #expect(options == (try parse("fit=cover," + canonical)), "\(text)")
            #expect(options.canonical == (try parse("fit=cover," + canonical)).canonical, "\(text)")
        }
        // Still numbers only: no exponents, spaces, fractions where whole numbers are asked, or a minus on a size.
        for text in ["w=1e2", "w= 10", "w=10.5", "w=-10", "q=0x10", "blur=nan"] {
            #expect(failure("fit=cover," + text)?.status == 400, "\(text)")
        }
        #expect(try parse("enlarge=0").enlarge == false)
    }

    @Test func maxOutputSideBoundsSidesAfterDPR() throws {
        #expect(try parse("w=100", maxOutputSide: 100).outputWidth == 100)
        #expect(throws: OptionError.self) { try parse("w=101", maxOutputSide: 100) }
        #expect(throws: OptionError.self) { try parse("h=60,dpr=2", maxOutputSide: 100) }
    }
}

/// Issue 26's keys: `gray`, `bright`, `contrast`, `round` and the `crop=W:H:G` window, each with one canonical form;
/// the canonical strings of requests without them are unchanged.
@Suite struct ImageOptionsColourTests {
    func parse(_ text: String) throws -> ImageOptions {
        try ImageOptions(parsing: Substring(text), maxOutputSide: 8192)
    }

    @Test func readsTheNewKeysIntoProcessorsInOrder() throws {
        let options = try parse("round=20:10:ff000000,contrast=-30,bright=15,gray=1,crop=300:0.5:ne,w=100,pad=2")
        #expect(options.grayscale && options.brightness == 15 && options.contrast == -30)
        #expect(options.roundCorners == .init(radiusX: 20, radiusY: 10, background: RGBA(255, 0, 0, 0)))
        #expect(options.crop == .window(width: .pixels(300), height: .fraction(0.5), gravity: .northEast))
        #expect(
            options.canonical
                == "w=100,h=-,fit=contain,enlarge=0,f=-,q=-,frame=-,crop=300:0.5:ne,pad=2:2:2:2,gray=1,bright=15,"
                + "contrast=-30,round=20:10:ff000000")
        let names = try options.processors().map(\.identifier)
        #expect(
            names == [
                "crop(300x0.5,g=ne)", "resize(100x8192,fit,noupscale,lanczos3)", "grayscale", "brightness(15)",
                "contrast(-30)", "pad(2,2,2,2,ffffffff)", "round(20x10,ff000000)",
            ])
        #expect(try parse("round=5").canonical.hasSuffix("round=5:5:ffffffff"))
        #expect(try parse("bright=0,contrast=0,gray=0").canonical == parse("-").canonical)
        #expect(try parse("round=4,dpr=2").processors().map(\.identifier) == ["round(8x8,ffffffff)"])
    }

    @Test func refusesBadValuesNamingThem() {
        for bad in [
            "gray=2", "bright=101", "bright=1.5", "bright=5e1", "contrast=-101", "round=0", "round=1:2:3:4",
            "round=5:5:red", "crop=0:10:c", "crop=10:10:up", "crop=1.5:10:c",
        ] {
            #expect(throws: OptionError.self, "\(bad)") { try parse(bad) }
        }
    }
}
