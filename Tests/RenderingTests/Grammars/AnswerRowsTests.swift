import Foundation
import ImagoRendering
import Testing

/// Issue 35, phase 3: the rows that change the answer rather than the pixels (`ImagoGrammar+Answer.swift`):
/// imgproxy's `fn`, `att`, security limits, `skp` and `raw`, thumbor's `max_age`, each read into the model and
/// keyed as its Imago spelling.
@Suite struct AnswerRowsTests: GrammarReading {
    var context: ProcessingOptions.Context {
        var context = ProcessingOptions.Context(maxOutputSide: 8192)
        context.sourceLimits = DecodeLimits(maxPixels: 50_000_000, maxFrames: 100, maxBytes: 10_000_000)
        return context
    }

    func failure(_ body: () throws -> ProcessingOptions) -> OptionError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? OptionError
        }
    }

    /// The canonical form reads back to the same options (the key round-trips through Imago's grammar; its
    /// always-written defaults, `w=-`, are left out to be read).
    func roundTrips(_ options: ProcessingOptions) throws -> Bool {
        try imago(given(options)).canonical == options.canonical
    }

    /// The canonical items that are set.
    func given(_ options: ProcessingOptions) -> String {
        options.canonical.split(separator: ",").filter { !$0.hasSuffix("=-") }.joined(separator: ",")
    }

    @Test func filenamesArePlainOrBase64AndKeyed() throws {
        let plain = try imgproxy("fn:my_photo")
        #expect(plain.filename == "my_photo" && plain.canonical.contains("fn=my_photo"))
        let escaped = try imgproxy("fn:my%20photo%20%C3%A9")
        #expect(escaped.filename == "my photo é")
        // "my photo 😀" in URL-safe Base64 without padding, as imgproxy's docs ask.
        let encoded = try imgproxy("filename:bXkgcGhvdG8g8J-YgA:1")
        #expect(encoded.filename == "my photo 😀")
        #expect(try roundTrips(encoded) && roundTrips(escaped))
        #expect(try imago(given(encoded)).filename == "my photo 😀")
        #expect(try imgproxy("fn:bXkgcGhvdG8g8J-YgA==:t").filename == "my photo 😀")
        #expect(try imgproxy("att:1").attachment && imgproxy("return_attachment:true").canonical.contains("att=1"))
        #expect(try imgproxy("fn:a").canonical != imgproxy("fn:b").canonical)
        #expect(try imgproxy("fn:a/att:1").canonical == imago("fn=a,att=1").canonical)
    }

    @Test func hostileFilenamesAreRefusedNamingTheOption() {
        let crlf = Data("a\r\nSet-Cookie: x=1".utf8).base64EncodedString()
        for segment in [
            "fn:\(crlf):1", "fn:a%0D%0Ab", "fn:a%00b", "fn:" + String(repeating: "a", count: 256), "fn:!!!:1",
            "fn:%FF%FE", "fn:",
        ] {
            let error = failure { try imgproxy(segment) }
            #expect(error?.kind == .malformed, "\(segment)")
            #expect(error?.message.contains("imgproxy option \"fn") == true, "\(segment): \(error?.message ?? "")")
        }
        #expect(throws: Never.self) { try imgproxy("fn:" + String(repeating: "a", count: 255)) }
    }

    @Test func securityLimitsTightenAndAreKeyed() throws {
        let options = try imgproxy("msr:0.5/msfs:1000/maf:10/mafr:0.25/mrd:500")
        let limits = options.limits
        #expect(limits.maxSourcePixels == 500_000 && limits.maxSourceBytes == 1000 && limits.maxFrames == 10)
        #expect(limits.maxFramePixels == 250_000 && limits.maxResultSide == 500)
        #expect(options.canonical == (try imago("msr=0.5,msfs=1000,maf=10,mafr=0.25,mrd=500")).canonical)
        #expect(try roundTrips(options))
        #expect(try imgproxy("max_src_resolution:0.5").canonical == imgproxy("msr:0.5").canonical)
        #expect(try imgproxy("msr:0.5").canonical != imgproxy("msr:0.6").canonical)
        let applied = limits.applied(to: DecodeLimits(maxPixels: 50_000_000, maxFrames: 100, maxBytes: 10_000_000))
        #expect(applied.maxPixels == 250_000 && applied.maxTotalPixels == 500_000)
        #expect(applied.maxFrames == 10 && applied.maxBytes == 1000)
        // The render's decode gets them (the loader checks them before the work, as the service's).
        let request = try options.renderRequest(
            url: URL(string: "http://example.com/a.jpg")!, format: .format(.jpeg),
            settings: ProcessingOptions.RenderSettings(limits: DecodeLimits(maxPixels: 50_000_000)))
        #expect(request.image.decodeOptions.limits.maxPixels == 250_000)
        #expect(request.image.decodeOptions.limits.maxBytes == 1000)
        // Tightened to exactly the defaults, which the loader would read as "its own limits": still tightened.
        let service = DecodeLimits(maxPixels: 200_000_000, maxTotalPixels: 800_000_000, maxBytes: 200 << 20)
        let toDefaults = try ImgproxyGrammar.options(
            ["msr:400", "mafr:100", "msfs:104857600"], extension: nil, context: ProcessingOptions.Context()
        ).options
        #expect(toDefaults.limits.applied(to: service) == .default)
        let tightened = try toDefaults.renderRequest(
            url: URL(string: "http://example.com/a.jpg")!, format: .format(.jpeg),
            settings: ProcessingOptions.RenderSettings(limits: service))
        #expect(tightened.image.decodeOptions.limits != .default)
        #expect(tightened.image.decodeOptions.limits.maxPixels == 100_000_000)
    }

    @Test func looserOrNonsenseLimitsAre400NamingThem() {
        for (segment, kind) in [
            ("msr:51", OptionError.Kind.conflicting), ("msfs:10000001", .conflicting), ("maf:101", .conflicting),
            ("mafr:50.5", .conflicting), ("mrd:8193", .conflicting), ("msr:0", .malformed), ("msr:-1", .malformed),
            ("mrd:0", .malformed), ("maf:-3", .malformed), ("msfs:abc", .malformed),
        ] {
            let error = failure { try imgproxy(segment) }
            #expect(error?.kind == kind, "\(segment): \(error?.message ?? "")")
            #expect(error?.message.contains("\"\(segment)\"") == true, "\(segment): \(error?.message ?? "")")
        }
        // At the limit is allowed; the tightened side bounds w and h.
        #expect(throws: Never.self) { try imgproxy("msr:50/maf:100/mrd:8192") }
    }

    @Test func maxResultDimensionScalesTheFinishedImageDown() throws {
        let image = DecodedImage(raster: try Raster(width: 400, height: 300, fill: RGBA(9, 99, 199)), format: .png)
        func size(_ segments: String) throws -> (Int, Int) {
            let result = try imgproxy(segments).processors().process(image)
            return (result.raster.width, result.raster.height)
        }
        // As imgproxy's limitScale: a larger ask, a source kept at its size and a padded result all fit; never up.
        #expect(try size("mrd:100/w:200") == (100, 75))
        #expect(try size("mrd:100") == (100, 75))
        #expect(try size("mrd:100/pd:50") == (100, 80))
        #expect(try size("mrd:1000") == (400, 300))
        #expect(try imgproxy("mrd:100").canonical != imgproxy("mrd:101").canonical)
    }

    @Test func skipProcessingAndRaw() throws {
        let skip = try imgproxy("skp:jpg:png")
        #expect(skip.skipProcessing == [.jpeg, .png])
        #expect(try skip.canonical == imago("skp=png:jpeg").canonical)
        #expect(try roundTrips(skip))
        #expect(try imgproxy("raw:1").raw && imgproxy("raw:1").canonical.contains("raw=1"))
        // raw wins: imgproxy ignores skip_processing beside it, and so does the key.
        #expect(try imgproxy("raw:1/skp:jpg").canonical == imgproxy("raw:1").canonical)
        #expect(failure { try imgproxy("skp:bmp") }?.kind == .malformed)
    }

    @Test func thumborsMaxAgeIsKeyedAndANegativeOneSkipped() throws {
        let reading = try ThumborGrammar.options("100x0/filters:max_age(60)/a.jpg", context: context).reading
        #expect(reading.options.maxAge == 60)
        #expect(reading.options.canonical.contains("maxage=60"))
        #expect(try imago(given(reading.options)).maxAge == 60)
        let negative = try ThumborGrammar.options("filters:max_age(-5)/a.jpg", context: context).reading
        #expect(negative.options.maxAge == nil && negative.scratch.skippedFilters == ["max_age(-5)"])
    }

    @Test func thumborsAutojpgIsKeyed() throws {
        for (filter, expected) in [("autojpg()", true), ("autojpg(True)", true), ("autojpg(0)", false)] {
            let options = try ThumborGrammar.options(Substring("filters:\(filter)/a.png"), context: context).reading
                .options
            #expect(options.autoJPEG == expected, "\(filter)")
            #expect(options.canonical.contains("autojpg=1") == expected)
            #expect(try imago(given(options)).canonical == options.canonical)
        }
        let skipped = try ThumborGrammar.options("filters:autojpg(maybe)/a.png", context: context).reading
        #expect(skipped.scratch.skippedFilters == ["autojpg(maybe)"] && !skipped.options.autoJPEG)
    }
}
