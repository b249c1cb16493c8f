import ImagoRendering
import Testing

@Suite struct ProcessingOptionsTests {
    let presets = ["card": "w=600,h=400,fit=cover,g=sm", "soft": "blur=2,q=70", "bad": "pr=card"]

    func parse(_ text: String, onlyPresets: Bool = false) throws -> ProcessingOptions {
        try ProcessingOptions(
            parsing: text, context: .init(maxOutputSide: 8192, presets: presets, onlyPresets: onlyPresets))
    }

    func error(_ text: String, onlyPresets: Bool = false) -> OptionError? {
        do {
            _ = try parse(text, onlyPresets: onlyPresets)
            return nil
        } catch {
            return error as? OptionError
        }
    }

    @Test func readsEveryNewOption() throws {
        let options = try parse(
            "crop=10:20:0.5:0.25,g=fp:0.3:0.7,pad=1:2:3:4,ext=1,bg=FF000080,rot=270,flip=hv,blur=2.5,sharpen=1,"
                + "trim=12,wm=0.5:se:0.25,maxb=20000,exp=1700000000,strip=0,f=jxl,w=10,h=20")
        #expect(
            options.crop
                == .region(CropRegion(x: .pixels(10), y: .pixels(20), width: .fraction(0.5), height: .fraction(0.25))))
        #expect(options.gravity == .focusPoint(x: 0.3, y: 0.7))
        #expect(options.pad == ProcessingOptions.Padding(top: 1, right: 2, bottom: 3, left: 4) && options.extend)
        #expect(options.background == RGBA(255, 0, 0, 128) && options.rotate == 270 && options.flip == .hv)
        #expect(options.blur == 2.5 && options.sharpen == 1 && options.trim == 12)
        #expect(options.watermark == ProcessingOptions.Watermark(opacity: 0.5, position: .southEast, scale: 0.25))
        #expect(options.maxBytes == 20000 && options.expires == 1_700_000_000 && !options.strip)
        #expect(options.format == .format(ImageFormat("jxl")))
        #expect(try parse("f=heic").format == .format(ImageFormat("heic")))
        #expect(try parse("crop=16:9,g=sm").crop == .aspect(width: 16, height: 9))
        #expect(
            try parse("g=sm").gravity == .smart
                && parse("wm=1:fp:0.1:0.9").watermark?.position == .focusPoint(x: 0.1, y: 0.9))
        #expect(try parse("pad=5").pad == ProcessingOptions.Padding(top: 5, right: 5, bottom: 5, left: 5))
        #expect(
            try parse("crop=-10:-0.1:50:50").crop
                == .region(CropRegion(x: .pixels(-10), y: .fraction(-0.1), width: .pixels(50), height: .pixels(50))))
    }

    @Test func canonicalFormFoldsDefaultsDPRAndPresets() throws {
        #expect(try parse("-").canonical == "w=-,h=-,fit=contain,enlarge=0,f=-,q=-,frame=-")
        #expect(try parse("g=c,strip=1,ext=0").canonical == parse("-").canonical)
        #expect(try parse("pad=10,dpr=2").canonical == parse("pad=20").canonical)
        #expect(try parse("pr=card").canonical == parse("w=600,h=400,fit=cover,g=sm").canonical)
        #expect(try parse("bg=ff0000").canonical == parse("bg=FF0000FF").canonical)
        #expect(try parse("crop=0.5:0.5:0.25:0.25").canonical.contains("crop=0.5:0.5:0.25:0.25"))
        #expect(try parse("blur=2").canonical != parse("blur=3").canonical)
        #expect(try parse("rot=90").canonical != parse("rot=270").canonical)
        #expect(try parse("wm=0.5:se").canonical.hasSuffix("wm=0.5:se"))
        #expect(try parse("maxb=100,exp=5,strip=0").canonical.hasSuffix("maxb=100,exp=5,strip=0"))
        // Canonical order is the table's, whatever the URL's.
        #expect(try parse("flip=h,trim=3").canonical == parse("trim=3,flip=h").canonical)
    }

    @Test func presetsApplyInOrderAndLaterOptionsOverride() throws {
        let options = try parse("w=100,pr=card:soft")
        #expect(options.width == 100 && options.height == 400 && options.fit == .cover && options.gravity == .smart)
        #expect(options.blur == 2 && options.quality == 70 && options.presets == ["card", "soft"])
        #expect(error("pr=nope")?.message.contains("unknown preset \"nope\"") == true)
        #expect(error("pr=bad")?.message.contains("cannot name pr") == true)
        #expect(try parse("pr=card", onlyPresets: true).width == 600)
        #expect(error("pr=card,w=5", onlyPresets: true)?.message.contains("only pr=") == true)
    }

    @Test func refusesBadValuesNamingTheItem() {
        let cases = [
            "crop=1:2:3", "crop=a:b:c:d", "crop=0:0:0:10", "crop=0:0:1.5:0.5", "crop=0:0:nan:1", "crop=0:0:inf:1",
            "crop=0:0:-5:5", "crop=0:16", "g=x", "g=fp:1.5:0", "g=fp:0.5", "g=fp:nan:0.1",
            "pad=-1", "pad=1:2", "pad=1000000", "ext=2", "bg=red", "bg=#ff0000", "bg=fff", "rot=45",
            "rot=0", "rot=-90", "rot=360", "flip=x", "blur=0.1", "blur=101", "blur=nan", "blur=1e2",
            "sharpen=11", "sharpen=0", "trim=256", "trim=-1", "wm=2:se", "wm=0.5:sm", "wm=0.5", "wm=0.5:se:0",
            "wm=0.5:se:1.5", "wm=0.5:xx", "wm=0.5:se:0.5:1", "maxb=0", "maxb=-5", "exp=soon", "strip=2", "pr=",
            "f=bmp", "zoom=0", "adj=more", "focal=1:1:0:5", "fill=red", "gblur=151", "rgb=1:2", "conv=2:1:1:1",
            "curve=0;0:0;0:0;0", "trim=5:xx", "g=w:5", "g=sm:1:1", "scale=0.5:0.5:up", "exar=1:sm", "pix=0",
        ]
        for text in cases {
            let failure = error(text)
            #expect(failure != nil, "\(text) was accepted")
            let key = String(text.prefix { $0 != "=" })
            #expect(failure?.message.contains(key) == true, "\(text): \(failure?.message ?? "-")")
        }
        #expect(error("pad=8000,dpr=2")?.message.contains("8192") == true)
        // Every spelling of a number is its value (issue 35): one key.
        let spelt = (try? parse("blur=2.50"))?.canonical
        #expect(spelt != nil && spelt == (try? parse("blur=2.5"))?.canonical)
    }

    @Test func processorsFollowTheFixedOrder() throws {
        let options = try parse(
            "wm=1:c,pad=2,sharpen=1,blur=1,flip=h,rot=90,w=10,h=10,fit=cover,crop=1:1:5:5,trim=3,ext=1")
        let mark = ProcessingOptions.WatermarkImage(
            raster: try Raster(width: 2, height: 2, fill: RGBA(0, 0, 0)), id: "m")
        let names = try options.processors(watermark: mark).map { String($0.identifier.prefix { $0 != "(" }) }
        #expect(names == ["trim", "crop", "resize", "rotate", "flip", "blur", "sharpen", "pad", "watermark"])
        let contained = try parse("w=10,h=10,ext=1,g=sm").processors().map(\.identifier)
        #expect(contained.last == "extend(10x10,g=c,ffffffff)")
        #expect(throws: OptionError.self) { try parse("wm=1:c").processors() }
        #expect(try parse("w=10,h=10").allowsReducedDecode && !(try parse("w=10,crop=0:0:5:5").allowsReducedDecode))
    }

    @Test func theTableHasEveryKeyOnceInCanonicalOrder() throws {
        #expect(
            ProcessingOptions.grammar.rows.map(\.name) == [
                "w", "h", "fit", "enlarge", "f", "q", "frame", "dpr", "trim", "crop", "g", "rot", "flip", "pad", "ext",
                "bg", "blur", "sharpen", "wm", "ninepatch", "gray", "bright", "contrast", "round", "pr", "maxb", "exp",
                "strip",
                "adj", "minw", "minh", "zoom", "focal", "scale", "exar", "pix", "ar", "fq", "fill", "flatten", "gblur",
                "wsharpen", "sat", "rgb", "colorize", "curve", "equalize", "noise", "conv", "order",
                "blurfaces", "pixelatefaces", "t", "frames", "fps", "fn", "att", "msr", "msfs", "maf", "mafr", "mrd",
                "skp", "raw", "maxage", "autojpg",
            ])
    }
}
