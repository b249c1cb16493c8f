import Foundation
import ImagoRendering
import ImagoTestSupport
import Testing

/// Issue 35, phase 2: each imgproxy option and thumbor filter the coverage table (Docs/Dialects.md) marks as
/// served writes the model as its documentation says, keys like its Imago spelling, and makes the processor that
/// does it.
@Suite struct DialectRowsTests: GrammarReading {
    let context = ProcessingOptions.Context()

    /// The size `options` make of a `width` × `height` image, rendered off the pool (up to a second each in a debug
    /// build).
    func output(_ options: ProcessingOptions, _ width: Int, _ height: Int) async throws -> (Int, Int) {
        try await offPool {
            let image = DecodedImage(
                raster: try Raster(width: width, height: height, fill: RGBA(9, 99, 199)), format: .png)
            let result = try options.processors().process(image)
            return (result.raster.width, result.raster.height)
        }
    }

    func identifiers(_ options: ProcessingOptions) throws -> String {
        try options.processors().map(\.identifier).joined(separator: " ")
    }

    // MARK: imgproxy

    @Test func fillWithoutEnlargeCutsTheTargetToTheImage() async throws {
        #expect(try await output(imgproxy("rs:fill:1000:1000"), 200, 150) == (200, 150))
        #expect(try await output(imgproxy("rt:fill-down/s:1000:1000"), 200, 150) == (150, 150))
        #expect(try await output(imgproxy("rs:fill:1000:1000:1"), 200, 150) == (1000, 1000))
        #expect(try imgproxy("rs:fill:1000:1000").canonical == imago("w=1000,h=1000,fit=cover,adj=clamp").canonical)
    }

    @Test func forceWithOneSideZeroKeepsTheOtherSide() async throws {
        #expect(try await output(imgproxy("rs:force:0:100"), 400, 200) == (400, 100))
        #expect(try await output(imgproxy("rs:force:100:0"), 400, 200) == (100, 200))
        #expect(try imgproxy("rs:force:0:100").canonical == imago("h=100,fit=fill").canonical)
    }

    @Test func gravityOffsetsMoveTheWindow() throws {
        let moved = try imgproxy("rs:fill:100:100/g:we:50:0")
        #expect(moved.gravity == .west && moved.adjustments.offset == (50, 0))
        #expect(moved.canonical == (try imago("w=100,h=100,fit=cover,g=w:50:0,adj=clamp")).canonical)
        #expect(try identifiers(moved) != identifiers(imgproxy("rs:fill:100:100/g:we")))
        // Pixel offsets follow dpr in the key; fractions do not.
        #expect(try imgproxy("rs:fill:50:50/g:we:25:0/dpr:2").canonical == moved.canonical)
        #expect(try imgproxy("g:no:0.25:0.5").canonical == imago("g=n:0.25:0.5").canonical)
        #expect(throws: OptionError.self) { try imgproxy("g:sm:10:10") }
    }

    @Test func cropAndExtendOffsets() throws {
        let crop = try imgproxy("c:100:100:we:10:5")
        #expect(crop.cropOffset == ProcessingOptions.Offset(x: 10, y: 5))
        #expect(crop.canonical == (try imago("crop=100:100:w:10:5")).canonical)
        #expect(try identifiers(crop) != identifiers(imgproxy("c:100:100:we")))
        let extend = try imgproxy("rs:fit:500:500/ex:1:we:10:0")
        #expect(extend.extendOffset == ProcessingOptions.Offset(x: 10, y: 0) && extend.extendGravity == .west)
        #expect(extend.canonical == (try imago("w=500,h=500,ext=1:w:10:0")).canonical)
    }

    @Test func minimumSidesZoomAndDPR() async throws {
        let minimum = try imgproxy("rs:fit:100:100/mw:300/dpr:2")
        #expect(minimum.outputAdjustments.minimumWidth == 600)
        #expect(try await output(imgproxy("rs:fit:100:100/min-width:300"), 400, 200) == (300, 150))
        #expect(try await output(imgproxy("mh:100"), 400, 200) == (400, 200))
        #expect(try imgproxy("rs:fit:100:100/z:2").adjustments.zoom == (2, 2))
        #expect(try await output(imgproxy("z:0.5:0.25"), 400, 200) == (200, 50))
        #expect(try imgproxy("zoom:0.5").canonical == imago("scale=0.5").canonical)
        // dpr below 1 is accepted, as imgproxy accepts it.
        #expect(try imgproxy("w:400/dpr:0.5").outputWidth == 200)
        #expect(throws: OptionError.self) { try imgproxy("dpr:0") }
    }

    @Test func aspectExtendPixelateTrimAndOrientation() async throws {
        #expect(try await output(imgproxy("exar:1:so/rs:fit:100:100"), 400, 200) == (100, 100))
        #expect(try imgproxy("exar:1").canonical == imago("exar=1:c").canonical)
        #expect(try identifiers(imgproxy("pix:8")).contains("pixelate(8)"))
        #expect(try imgproxy("pixelate:8/dpr:2").canonical == imago("pix=16").canonical)
        let trim = try imgproxy("t:20:ff00ff:1:0")
        #expect(trim.trim == 20 && trim.trimRule.reference == .colour(RGBA(255, 0, 255)))
        #expect(trim.trimRule.equalHorizontal && !trim.trimRule.equalVertical)
        #expect(trim.canonical == (try imago("trim=20:ff00ffff:ch:h")).canonical)
        #expect(try imgproxy("ar:0").appliesOrientation == false)
        #expect(try imgproxy("ar:1").canonical == imago("-").canonical)
        let request = try imgproxy("ar:0").renderRequest(
            url: URL(fileURLWithPath: "/a.png"), format: .format(.png), settings: .init())
        #expect(request.image.appliesOrientation == false)
    }

    @Test func metadataOptionsAndFormatQuality() throws {
        // Accepted with the differences the coverage table states; they change nothing in the answer.
        #expect(try imgproxy("kcr:1/eth:1/scp:1").canonical == imago("-").canonical)
        #expect(try imgproxy("scp:0").strip == false)
        let qualities = try imgproxy("fq:jpeg:10:webp:20")
        #expect(qualities.formatQualities == [.jpeg: 10, .webp: 20])
        #expect(qualities.encodeOptions(for: .jpeg, settings: .init()).quality == 10)
        #expect(qualities.encodeOptions(for: .png, settings: .init()).quality == 85)
        #expect(try imgproxy("q:50/fq:jpeg:10").encodeOptions(for: .jpeg, settings: .init()).quality == 50)
        #expect(qualities.canonical == (try imago("fq=webp:20:jpeg:10")).canonical)
    }

    @Test func anOptionWithoutItsValueIsNamed() {
        let failure = #expect(throws: OptionError.self) { try imgproxy("rot") }
        #expect(failure?.message.contains("\"rot\"") == true, "\(failure?.message ?? "")")
    }

    // MARK: thumbor

    @Test func coloursAreCSSColours() throws {
        let fill = try thumbor("fit-in/300x200/filters:fill(red,true)/a.png").options
        #expect(
            fill.canvasFill == ProcessingOptions.CanvasFill(fill: .colour(RGBA(255, 0, 0)), fillsTransparency: true))
        #expect(try identifiers(fill).contains("fill("))
        #expect(try thumbor("filters:background_color(blue)/a.png").options.flatten == RGBA(0, 0, 255))
        #expect(try thumbor("filters:fill(00ff00)/a.png").options.canvasFill?.usesTargetSize == false)
        #expect(try thumbor("filters:background_color(auto)/a.png").options.canvasFill?.fill == .average)
    }

    @Test func focalRegionsAreSourcePixels() throws {
        let focal = try thumbor("300x200/filters:focal(500x300:700x500)/a.jpg").options
        #expect(focal.adjustments.focalRegions == [ResizeAdjustments.Region(x: 500, y: 300, width: 200, height: 200)])
        #expect(!focal.allowsReducedDecode)
        // Moved by a manual crop; outside it, or empty, ignored.
        let cropped = try thumbor("100x100:900x900/300x200/filters:focal(500x300:700x500)/a.jpg").options
        #expect(cropped.adjustments.focalRegions.first?.x == 400)
        #expect(
            try thumbor("0x0:100x100/300x200/filters:focal(500x300:700x500)/a.jpg").options.adjustments.focalRegions
                .isEmpty)
        #expect(try thumbor("300x200/filters:focal(5x5:5x5)/a.jpg").options.adjustments.focalRegions.isEmpty)
    }

    @Test func sharpenBlurAndNoUpscaleAsThumbor() async throws {
        let sharpen = try thumbor("filters:sharpen(4,2,true)/a.jpg").options
        #expect(sharpen.waveletSharpen == ProcessingOptions.WaveletSharpen(amount: 4, radius: 2, luminanceOnly: true))
        #expect(try thumbor("filters:sharpen(1,2,true)/a.jpg").options.canonical != sharpen.canonical)
        #expect(try thumbor("filters:blur(400)/a.jpg").options.truncatedBlur?.radius == 150)
        let small = try thumbor("1000x1000/filters:no_upscale()/a.jpg").options
        #expect(try await output(small, 200, 150) == (200, 150))
    }

    @Test func whatThumborSkipsIsSkipped() throws {
        let reading = try thumbor("filters:nonsense(1):brightness(+20):rotate(45):format(heif):grayscale()/a.jpg")
        #expect(reading.scratch.skippedFilters == ["nonsense(1)", "brightness(+20)"])
        #expect(reading.options.rotate == nil && reading.options.brightness == nil && reading.options.grayscale)
        #expect(reading.options.format == OutputFormat.format(ImageFormat("heic")))
        #expect(try thumbor("filters:format(bmp)/a.jpg").options.format == nil)
        // What thumbor does but Imago cannot is still a 400 naming it.
        #expect(throws: OptionError.self) { try thumbor("filters:redeye()/a.jpg") }
    }

    @Test func colourFiltersProportionAndStretch() async throws {
        let options = try thumbor(
            "filters:rgb(10,-20,30):colorize(10,20,30,ff0000):saturation(1.5):equalize():noise(20):"
                + "convolution(1;2;1;2;4;2;1;2;1,3,true):proportion(0.5)/a.jpg"
        ).options
        let names = try identifiers(options)
        for name in ["rgb(10,-20,30)", "colorize(", "saturation(1.5)", "equalize", "noise(20,0)", "scale(0.5x0.5,down"]
        {
            #expect(names.contains(name), "\(name) in \(names)")
        }
        #expect(try thumbor("filters:proportion(2)/a.jpg").options.scale == nil)
        #expect(
            try thumbor("filters:noise(200,123)/a.jpg").options.noise == ProcessingOptions.Noise(amount: 200, seed: 123)
        )
        #expect(try await output(thumbor("300x100/filters:stretch()/a.jpg").options, 400, 400) == (300, 100))
    }

    @Test func adaptiveFullFitInAndUpscaleAsThumbor() async throws {
        // FIT_IN_CROP_DATA[6]: adaptive-full-fit-in/100x400 of 800×400 is 400×200 (the box turned, then covered).
        let adaptiveFull = try thumbor("adaptive-full-fit-in/100x400/a.png").options
        #expect(adaptiveFull.canonical == (try imago("w=100,h=400,fit=adaptive-outside,enlarge=1")).canonical)
        #expect(try await output(adaptiveFull, 800, 400) == (400, 200))
        // test_upscale_filter_with_adaptive_fit_in_big: 800×533 is 1200×799 (thumbor's upscale() truncates).
        let upscaled = try thumbor("adaptive-fit-in/1000x1200/filters:upscale()/a.jpg").options
        #expect(upscaled.canonical == (try imago("w=1000,h=1200,fit=adaptive,enlarge=1,adj=floorup")).canonical)
        #expect(try await output(upscaled, 800, 533) == (1200, 799))
        // A fit-in that shrinks still rounds: 800×533 into 400x400 is 400×267.
        #expect(try await output(thumbor("fit-in/400x400/filters:upscale()/a.jpg").options, 800, 533) == (400, 267))
        // adaptive-fit-in/900x500 with no_upscale() of 600×800: the box cut to 600×500, then turned: 450×600 (the
        // real thumbor's answer; turned first, 500×667).
        let clamped = try thumbor("adaptive-fit-in/900x500/filters:no_upscale()/a.png").options
        #expect(try await output(clamped, 600, 800) == (450, 600))
        // full-fit-in/origx800 of 800×533: the box is 800×800, covered by 1201×800.
        #expect(try await output(thumbor("full-fit-in/origx800/a.jpg").options, 800, 533) == (1201, 800))
    }

    @Test func colourFiltersApplyInTheURLsOrder() throws {
        // thumbor applies contrast(20):brightness(10) as written; Imago's key keeps that order, read back alike.
        let reversed = try thumbor("filters:contrast(20):brightness(10)/a.jpg").options
        #expect(reversed.canonical.hasSuffix("bright=10,contrast=20,order=contrast:bright"))
        #expect(try imago("bright=10,contrast=20,order=contrast:bright").canonical == reversed.canonical)
        #expect(try identifiers(reversed).contains("contrast(20) brightness(10)"))
        // The fixed order is no order: the key is what it was before phase 3.
        let fixed = try thumbor("filters:brightness(10):contrast(20)/a.jpg").options
        #expect(fixed.canonical == (try imago("bright=10,contrast=20")).canonical)
        #expect(!fixed.canonical.contains("order"))
        let image = DecodedImage(raster: try Raster(width: 4, height: 4, fill: RGBA(9, 99, 199)), format: .png)
        #expect(try reversed.processors().process(image).raster != fixed.processors().process(image).raster)
        // One form per meaning: effects not set are dropped, the unnamed follow in the fixed order.
        #expect(try imago("bright=10,order=contrast:bright").canonical == imago("bright=10").canonical)
        #expect(
            try imago("bright=10,contrast=20,order=bright:contrast").canonical
                == imago("bright=10,contrast=20").canonical)
        #expect(
            try imago("gray=1,bright=10,contrast=20,order=contrast").canonical.hasSuffix("order=contrast:gray:bright"))
        // A repeated thumbor filter takes its last place.
        let repeated = try thumbor("filters:brightness(5):contrast(20):brightness(10)/a.jpg").options
        #expect(repeated.canonical == reversed.canonical)
        #expect(throws: OptionError.self) { try imago("order=bright:bright") }
        #expect(throws: OptionError.self) { try imago("order=blur") }
    }

    @Test func extractFocalReadsTheNestedURLsCrop() throws {
        // thumbor's extract_focal(): the nested URL's crop 100x150:300x200 is a focal region of its image.
        let (reading, image) = try ThumborGrammar.options(
            "300x100/filters:extract_focal()/localhost:8888/unsafe/100x150:300x200/fit-in/50x50/photo.jpg",
            context: context)
        #expect(image == "photo.jpg")
        #expect(reading.options.adjustments.focalRegions == [.init(x: 100, y: 150, width: 200, height: 50)])
        #expect(
            reading.options.canonical
                == (try thumbor("300x100/filters:focal(100x150:300x200)/photo.jpg")).options.canonical)
        // Nested twice, signed, over https: the first crop found (the nested URLs' filters are not applied).
        let nested = try ThumborGrammar.options(
            "filters:extract_focal()/https://a.example/HASH/filters:focal(1x1:2x2)/b.example/unsafe/0x0:40x20/"
                + "http://c.example/d.png", context: context)
        #expect(nested.image == "http://c.example/d.png")
        #expect(nested.reading.options.adjustments.focalRegions == [.init(x: 0, y: 0, width: 40, height: 20)])
        // Without a nested crop the image stays, as thumbor leaves it.
        #expect(try ThumborGrammar.options("filters:extract_focal()/photo.jpg", context: context).image == "photo.jpg")
        #expect(
            try ThumborGrammar.options("filters:extract_focal()/h/unsafe/300x200/photo.jpg", context: context).image
                == "h/unsafe/300x200/photo.jpg")
    }
}
