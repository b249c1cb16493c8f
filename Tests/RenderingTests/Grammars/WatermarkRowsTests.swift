import Foundation
import ImagoRendering
import Testing

/// Issue 35, phase 3: thumbor's `watermark(URL,X,Y,ALPHA[,W_RATIO,H_RATIO])` and imgproxy's `wm` offsets and `re`
/// write one watermark model, keyed (with the mark's URL) in Imago's `wm`, which reads its canonical form back;
/// thumbor's `frame(URL)` is Imago's `ninepatch`.
@Suite struct WatermarkRowsTests: GrammarReading {
    let context = ProcessingOptions.Context()

    func mark(_ filter: String) throws -> ProcessingOptions.Watermark? {
        try thumbor("filters:\(filter)/a.jpg").options.watermark
    }

    @Test func thumborsPositionsAreGravitiesWithOffsets() throws {
        let cases: [(String, Gravity, Double, Double)] = [
            ("30,-50", .southWest, 30, 50), ("-10,-100", .southEast, 10, 100), ("center,center", .center, 0, 0),
            ("center,40", .north, 0, 40), ("4p,-30p", .southWest, 0.04, 0.3), ("-0,0", .northEast, 0, 0),
            ("center,-5", .south, 0, 5), ("-7,center", .east, 7, 0), ("150p,0", .northWest, 0.99999, 0),
        ]
        for (position, gravity, x, y) in cases {
            let watermark = try #require(try mark("watermark(m.png,\(position),0)"), "\(position)")
            #expect(watermark.position == gravity, "\(position)")
            #expect(watermark.offset == ProcessingOptions.Offset(x: x, y: y), "\(position)")
            #expect(watermark.tiling == nil && watermark.source == "m.png" && watermark.opacity == 1)
        }
        let repeated = try #require(try mark("watermark(m.png,repeat,-20,0)"))
        #expect(repeated.tiling == .spread(horizontal: true, vertical: false) && repeated.position == .southWest)
        #expect(try mark("watermark(m.png,repeat,repeat,0)")?.tiling == .spread(horizontal: true, vertical: true))
    }

    @Test func thumborsAlphaAndRatios() throws {
        // ALPHA is a transparency: 255 × ALPHA / 100 levels (whole) off every alpha value.
        #expect(try mark("watermark(m.png,0,0,60)")?.alphaReduction == 153)
        #expect(try mark("watermark(m.png,0,0,50)")?.alphaReduction == 127)
        #expect(try mark("watermark(m.png,0,0,250)")?.alphaReduction == 255)
        let sized = try #require(try mark("watermark(m.png,0,0,20,50)"))
        #expect(sized.fitWidth == 0.5 && sized.fitHeight == nil)
        let both = try #require(try mark("watermark(m.png,0,0,20,none,30)"))
        #expect(both.fitWidth == nil && both.fitHeight == 0.3)
        #expect(try mark("watermark(m.png,0,0,20,0,0)")?.fitWidth == nil)
        // A negative ratio is a 400; what thumbor's patterns do not read is skipped, as thumbor skips it.
        #expect(throws: OptionError.self) { try mark("watermark(m.png,0,0,20,-5)") }
        for skipped in ["watermark(m.png,left,0,20)", "watermark(m.png,0,0,-5)", "watermark(m.png,1.5,0,5)"] {
            let reading = try thumbor("filters:\(skipped)/a.jpg")
            #expect(reading.options.watermark == nil && reading.scratch.skippedFilters == [skipped], "\(skipped)")
        }
    }

    @Test func imgproxysOffsetsAndReplicate() throws {
        let moved = try #require(try imgproxy("wm:0.5:soea:10:5:0.2").watermark)
        #expect(moved.position == .southEast && moved.offset == ProcessingOptions.Offset(x: 10, y: 5))
        #expect(moved.scale == nil && moved.opacity == 0.5 && moved.tiling == nil && moved.source == nil)
        // imgproxy's scale fits the mark in that fraction of both sides, rounded as imgproxy rounds.
        #expect(moved.fitWidth == 0.2 && moved.fitHeight == 0.2 && moved.fitRoundsToEven)
        #expect(try imgproxy("wm:0.5:soea:10:5:0").watermark?.fitWidth == nil)
        #expect(try imgproxy("wm:1:ce:0.1:-0.2").watermark?.offset == ProcessingOptions.Offset(x: 0.1, y: -0.2))
        let tiled = try #require(try imgproxy("wm:0.7:re:12:4").watermark)
        #expect(tiled.tiling == .grid(gapX: 12, gapY: 4) && tiled.offset.isZero)
        #expect(try imgproxy("wm:0.7:re").watermark?.tiling == .grid(gapX: 0, gapY: 0))
        #expect(throws: OptionError.self) { try imgproxy("wm:0.7:re:-2:0") }
        #expect(throws: OptionError.self) { try imgproxy("wm:0.7:re:0.5:0") }
        // The same meaning in Imago's grammar has the same key; dpr scales the pixels.
        #expect(
            try imgproxy("wm:0.5:soea:10:5:0.2").canonical == imago("wm=0.5:se:off:10:5:fit:0.2:0.2:even").canonical)
        #expect(try imgproxy("wm:0.5:soea:10:5:0.2").canonical != imago("wm=0.5:se:off:10:5:fit:0.2:0.2").canonical)
        #expect(try imago("wm=0.5:se:fit:0.2:-:even").watermark?.fitRoundsToEven == true)
        #expect(throws: OptionError.self) { try imago("wm=0.5:se:even") }
        #expect(try imgproxy("wm:0.7:re:12:4").canonical == imago("wm=0.7:c:grid:12:4").canonical)
        #expect(try imgproxy("dpr:2/wm:1:nowe:3:0.5").canonical.contains("wm=1:nw:off:6:0.5"))
    }

    @Test func imagosWmReadsBackEveryPartAndKeysTheMarksURL() throws {
        var options = ProcessingOptions()
        var watermark = ProcessingOptions.Watermark(opacity: 1, position: .southWest)
        watermark.offset = ProcessingOptions.Offset(x: 30, y: 0.3)
        watermark.tiling = .spread(horizontal: true, vertical: false)
        (watermark.fitWidth, watermark.fitHeight) = (0.5, nil)
        watermark.alphaReduction = 153
        watermark.source = "https://marks.example/a,b:c.png?x=1"
        options.watermark = watermark
        let canonical = try #require(options.canonical.split(separator: ",").first { $0.hasPrefix("wm=") })
        #expect(canonical.hasPrefix("wm=1:sw:off:30:0.3:spread:h:fit:0.5:-:fade:153:src:"), "\(canonical)")
        #expect(try imago(String(canonical)) == options, "one item, read back whole")
        var other = options
        other.watermark?.source = "https://marks.example/b.png"
        #expect(other.canonical != options.canonical, "the mark's URL is in the key")
        // The thumbor filter and its Imago spelling are one key.
        let read = try thumbor("filters:watermark(https%3A%2F%2Fm.example%2Fw.png,30,-50,60,50)/a.jpg").options
        #expect(read.canonical.contains("wm=1:sw:off:30:50:fit:0.5:-:fade:153:src:"), "\(read.canonical)")
        let item = try #require(read.canonical.split(separator: ",").first { $0.hasPrefix("wm=") })
        #expect(try imago(String(item)).watermark == read.watermark)
        for bad in ["wm=1:c:off:1", "wm=1:c:fit:-:-", "wm=1:c:src:!!", "wm=1:c:spread:x", "wm=1:c:nope:1"] {
            #expect(throws: OptionError.self, "\(bad)") { try imago(bad) }
        }
    }

    @Test func theProcessorDrawsWhatTheModelSays() throws {
        var options = try imgproxy("wm:1:soea:7:3")
        let base = DecodedImage(raster: try Raster(width: 100, height: 50, fill: RGBA(0, 0, 0)), format: .png)
        let mark = ProcessingOptions.WatermarkImage(
            raster: try Raster(width: 10, height: 10, fill: RGBA(255, 0, 0)), id: "red")
        var raster = try options.processors(watermark: mark).process(base).raster
        #expect(raster[83, 37].r == 255 && raster[92, 46].r == 255 && raster[93, 46].r == 0 && raster[82, 37].r == 0)
        options = try imgproxy("dpr:2/wm:1:nowe:3:2")
        raster = try options.processors(watermark: mark).process(base).raster
        #expect(raster[6, 4].r == 255 && raster[5, 4].r == 0 && raster[6, 3].r == 0)
        // Without an image: a mark named by URL that was not loaded is a typed error naming the option.
        let named = try thumbor("filters:watermark(m.png,0,0,0)/a.jpg").options
        #expect(throws: OptionError.self) { try named.processors() }
    }

    @Test func thumborsFrameIsANinePatchKeyedByItsURL() throws {
        let options = try thumbor("300x200/filters:frame(frames/a.9.png)/a.jpg").options
        #expect(options.ninePatch == "frames/a.9.png" && options.imageSources.map(\.url) == ["frames/a.9.png"])
        #expect(options.imageSources.map(\.key) == ["ninepatch"])
        let item = try #require(options.canonical.split(separator: ",").first { $0.hasPrefix("ninepatch=") })
        #expect(try imago(String(item)).ninePatch == "frames/a.9.png")
        #expect(try thumbor("filters:frame(b.png)/a.jpg").options.canonical != options.canonical)
        #expect(throws: OptionError.self) { try imago("ninepatch=!!") }
        // A configuration's preset has no images to draw.
        #expect(try imago("ninepatch=aHR0cHM6Ly94LmV4YW1wbGUvYS5wbmc").ninePatch == "https://x.example/a.png")
        #expect(throws: OptionError.self) { try OptionsProcessor("ninepatch=aHR0cHM6Ly94LmV4YW1wbGUvYS5wbmc") }
        // Without its image the processors refuse, naming the option.
        #expect(throws: OptionError.self) { try options.processors() }
        let patch = ProcessingOptions.WatermarkImage(
            raster: try Raster(width: 5, height: 5, fill: RGBA(0, 0, 0, 0)), id: "p")
        let processors = try options.processors(images: ["frames/a.9.png": patch], faces: nil)
        #expect(processors.map(\.identifier).contains("ninepatch(p)"))
    }
}
