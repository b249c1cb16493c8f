import ImagoRendering
import Testing

/// The one options model written by three grammars: each grammar's rows write typed values (no text parsed
/// twice), one validation runs, one canonical form keys the result, and errors name the option as its user wrote it.
@Suite struct OptionGrammarTests: GrammarReading {
    let context = ProcessingOptions.Context()

    func error(_ body: () throws -> ProcessingOptions) -> OptionError? {
        do {
            _ = try body()
            Issue.record("accepted")
            return nil
        } catch {
            #expect(error is OptionError, "\(error)")
            return error as? OptionError
        }
    }

    @Test func theThreeGrammarsWriteOneModelAndOneKey() throws {
        let own = try imago("w=300,h=200,fit=cover,g=ne,blur=2,q=70,f=webp,adj=clamp")
        let proxied = try imgproxy("rs:fill:300:200/g:noea/bl:2/q:70/f:webp")
        #expect(proxied == own && proxied.canonical == own.canonical)
        // thumbor's fill-and-crop truncates its sides and cuts whole pixels; its blur is cut at the radius.
        let thumbed = try thumbor("300x200/right/top/filters:blur(2):quality(70):format(webp):no_upscale()/a.jpg")
            .options
        let thumborsOwn = try imago("w=300,h=200,fit=cover,g=ne,gblur=2:2,q=70,f=webp,adj=clamp:floor:whole")
        #expect(thumbed == thumborsOwn && thumbed.canonical == thumborsOwn.canonical)
        // One side and 0 keep the aspect in every grammar.
        #expect(try imgproxy("rs:fit:300:0").canonical == imago("w=300").canonical)
        #expect(try thumbor("fit-in/300x0/a.jpg").options.canonical == imago("w=300").canonical)
    }

    @Test func numbersAreValuesWhateverTheirSpellingWhereTheGrammarAllowsIt() throws {
        // imgproxy and thumbor read any digits; the model, and so the key, holds the value.
        #expect(try imgproxy("w:010/bl:2.50").canonical == imago("w=10,blur=2.5").canonical)
        #expect(try thumbor("0300x0/a.jpg").options.width == 300)
        // A point with digits on one side only (thumbor's `[-]?(\d+\.?\d*|\d*\.?\d+)`, Go's ParseFloat).
        #expect(try imgproxy("bl:2.").canonical == imago("blur=2").canonical)
        #expect(try imgproxy("bl:.5").canonical == imago("blur=0.5").canonical)
        #expect(
            try thumbor("filters:sharpen(1.5,2.,true)/a.jpg").options.canonical == imago("wsharpen=1.5:2:1").canonical)
        #expect(error { try imgproxy("bl:.") } != nil)
        #expect(try imago("blur=2.").canonical == imago("blur=2").canonical)
        // Imago's own grammar and imgproxy's read every spelling (a `+` too, as Go does); thumbor's patterns have
        // no `+`.
        #expect(try imago("w=010,blur=02.50").canonical == imago("w=10,blur=2.5").canonical)
        #expect(try imgproxy("w:+010/bl:+2.50").canonical == imago("w=10,blur=2.5").canonical)
    }

    @Test func everyRowWritesOptionsOfTheModel() {
        let keys = Set(ProcessingOptions.grammar.rows.map(\.name))
        let rows =
            ProcessingOptions.grammar.rows.map { ($0.name, $0.writes) }
            + ImgproxyGrammar.grammar.rows.map { ($0.name, $0.writes) }
            + ThumborGrammar.filters.rows.map { ($0.name, $0.writes) }
        for (name, writes) in rows {
            for key in writes { #expect(keys.contains(key), "\(name) writes \(key), which is not an option") }
        }
        // Every name, and every alias, is in one row only (the grammar refuses to build otherwise).
        #expect(ImgproxyGrammar.grammar.row(named: "rs")?.name == "resize")
        #expect(ImgproxyGrammar.grammar.knows("zoom") && !ImgproxyGrammar.grammar.knows("zoomx"))
    }

    @Test func errorsNameTheOptionAsItsUserWroteIt() {
        let proxied = error { try imgproxy("bl:0.1") }
        #expect(proxied?.item == "bl:0.1" && proxied?.message.hasPrefix("imgproxy option \"bl:0.1\"") == true)
        #expect(proxied?.message.contains("blur=") == false)
        let filtered = error { try thumbor("300x200/filters:redeye()/a.jpg").options }
        #expect(
            filtered?.message.contains("thumbor filter \"redeye()\"") == true,
            "\(filtered?.message ?? "")")
        let limited = error {
            try ImgproxyGrammar.options(["w:4000", "dpr:3"], extension: nil, context: .init(maxOutputSide: 8192))
                .options
        }
        #expect(limited?.message.contains("\"w:4000\" with \"dpr:3\" is 12000 px") == true, "\(limited?.message ?? "")")
        #expect(error { try imgproxy("ph:1") }?.kind == .unsupported)
        #expect(error { try imgproxy("nope:2") }?.kind == .unknown)
    }

    @Test func extendNeedsBothSidesInEveryGrammar() throws {
        for (text, named) in [("ext=1", "ext=1"), ("w=10,ext=1", "ext=1")] {
            let failure = error { try imago(text) }
            #expect(failure?.kind == .conflicting && failure?.message.contains("\"\(named)\"") == true)
        }
        #expect(try imago("w=10,h=10,ext=1").extend)
        #expect(error { try imgproxy("w:10/ex:1") }?.message.contains("\"ex:1\"") == true)
        #expect(try imgproxy("rs:fit:10:10/ex:1:so").extendGravity == .south)
        #expect(try imago("w=10,h=10,ext=1:s") == imgproxy("rs:fit:10:10/ex:1:so"))
    }

    @Test func aProcessorThatFailsOnTheImageNamesTheOption() throws {
        let image = DecodedImage(raster: try Raster(width: 400, height: 300, fill: RGBA(1, 2, 3)), format: .png)
        for (options, spelling, written) in [
            (
                try imago("crop=500:500:10:10"), { (key: String) in key == "crop" ? "crop=500:500:10:10" : key },
                "crop=500:500:10:10"
            ),
            (
                try thumbor("500x500:510x510/a.jpg").options,
                { (key: String) in key == "crop" ? "500x500:510x510" : key },
                "500x500:510x510"
            ),
        ] {
            let processors = try options.processors(spelling: spelling)
            let failure = #expect(throws: ImagoError.self) { try processors.process(image) }
            #expect(failure?.kind == .processingFailed)
            #expect(failure?.reason.contains("option \"\(written)\"") == true, "\(failure?.reason ?? "")")
            // The processor's identifier is an internal name, not what anyone wrote.
            #expect(failure?.reason.contains("crop(") == false, "\(failure?.reason ?? "")")
        }
        // The reading keeps the spelling thumbor's user wrote.
        let reading = try ThumborGrammar.options("500x500:510x510/a.jpg", context: context).reading
        #expect(reading.spelling(of: "crop") == "500x500:510x510")
    }

    @Test func thumborsCropShapesAreReadAsCrops() {
        let failure = error { try thumbor("-10x-10:50x50/a.jpg").options }
        #expect(failure?.message.contains("thumbor crop \"-10x-10:50x50\"") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("loaderBase") == false)
    }
}

/// Docs/Dialects.md's "Adding an option": one row is all an option needs.
@Suite struct OptionRowTests {
    typealias Row = OptionRow<ImgproxyGrammar.Scratch>

    @Test func aGrammarOfOneRowReadsItsOptionAndNamesItsMistakes() throws {
        let row =
            Row(["blur", "bl"], expected: "a sigma", writes: ["blur"]) { reading, arguments in
                reading.options.blur = try arguments.decimal(0, in: 0.3...100)
            }
        let grammar = OptionGrammar(style: ImgproxyGrammar.grammar.style, rows: [row], laterOptionsOverride: true)
        var reading = OptionsReading(scratch: ImgproxyGrammar.Scratch())
        let item = OptionItem("bl:2.5", separator: ":", argumentSeparator: ":")
        try grammar.read([item], into: &reading, context: .init())
        #expect(reading.options.blur == 2.5 && reading.spelling(of: "blur") == "bl:2.5")
        let bad = #expect(throws: OptionError.self) {
            try grammar.apply(OptionItem("blur:200", separator: ":", argumentSeparator: ":"), to: &reading)
        }
        #expect(bad?.message == "imgproxy option \"blur:200\": expected a sigma")
    }
}
