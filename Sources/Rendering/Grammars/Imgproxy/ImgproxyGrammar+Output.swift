/// imgproxy's effect and output options, and the ones Imago does not honour.
extension ImgproxyGrammar {
    static let effectRows: [Row] = [
        Row(["blur", "bl"], expected: "a sigma", writes: ["blur"]) { reading, arguments in
            reading.options.blur = try sigma(arguments, upTo: 100)
        },
        Row(["sharpen", "sh"], expected: "a sigma", writes: ["sharpen"]) { reading, arguments in
            reading.options.sharpen = try sigma(arguments, upTo: 10)
        },
        Row(
            ["watermark", "wm"], expected: "OPACITY:POSITION:X_OFFSET:Y_OFFSET:SCALE", arguments: 1...5,
            writes: ["wm"]
        ) { reading, arguments in
            let opacity = try arguments.decimal(0, in: 0...1, expected: "an opacity from 0 to 1") ?? 0
            guard opacity > 0 else {
                reading.options.watermark = nil
                return
            }
            var position = Gravity.center
            var tiled = false
            if let name = arguments[1], !name.isEmpty {
                if name == "re" {
                    tiled = true
                } else {
                    guard let gravity = gravities[String(name)], gravity != .smart else {
                        throw arguments.malformed("a watermark position")
                    }
                    position = gravity
                }
            }
            let offset = ProcessingOptions.Offset(
                x: try arguments.decimal(2, in: -99_999...99_999, expected: "an offset") ?? 0,
                y: try arguments.decimal(3, in: -99_999...99_999, expected: "an offset") ?? 0)
            let scale = try arguments.decimal(4, in: 0...1, expected: "a scale from 0 to 1")
            var mark = ProcessingOptions.Watermark(opacity: opacity, position: position)
            if let scale, scale > 0 {
                // imgproxy fits the mark (enlarging it too) in SCALE of both sides, the box's sides rounded to even.
                (mark.fitWidth, mark.fitHeight, mark.fitRoundsToEven) = (scale, scale, true)
            }
            if tiled {
                // `re`: the offsets are the gaps between the tiles, in whole pixels.
                guard let gapX = Int(exactly: offset.x), let gapY = Int(exactly: offset.y), gapX >= 0, gapY >= 0 else {
                    throw arguments.malformed("whole pixels from 0 between tiles (re)")
                }
                mark.tiling = .grid(gapX: gapX, gapY: gapY)
            } else {
                mark.offset = offset
            }
            reading.options.watermark = mark
        },
    ]

    /// A sigma; 0 (or left out) is none, and Imago's filters need at least 0.3.
    static func sigma(_ arguments: OptionArguments, upTo limit: Double) throws -> Double? {
        let expected = "0 (none) or a sigma from 0.3 to \(ProcessingOptions.number(limit))"
        let sigma = try arguments.decimal(0, in: 0...limit, expected: expected) ?? 0
        guard sigma == 0 || sigma >= 0.3 else { throw arguments.malformed(expected) }
        return sigma == 0 ? nil : sigma
    }

    static let formatExpected = "jpg, png, webp, gif, avif, jxl or heic"

    static let outputRows: [Row] = [
        Row(["quality", "q"], expected: "a quality from 0 to 100", writes: ["q"]) { reading, arguments in
            let quality = try arguments.int(0, in: 0...100) ?? 0
            reading.options.quality = quality == 0 ? nil : quality
        },
        // Each pair is the quality of that format when it is the output's, whatever picks it (the URL, the source,
        // f=auto).
        Row(["format_quality", "fq"], expected: "FORMAT:QUALITY pairs", arguments: 2...16, writes: ["fq"]) {
            reading, arguments in
            guard arguments.count % 2 == 0 else { throw arguments.malformed() }
            for index in stride(from: 0, to: arguments.count, by: 2) {
                guard let format = format(arguments[index]),
                    let quality = try arguments.int(index + 1, in: 1...100)
                else { throw arguments.malformed() }
                reading.options.formatQualities[format] = quality
            }
        },
        Row(["max_bytes", "mb"], expected: "a number of bytes", writes: ["maxb"]) { reading, arguments in
            let bytes = try arguments.int(0, in: 0...2_000_000_000) ?? 0
            reading.options.maxBytes = bytes == 0 ? nil : bytes
        },
        Row(["format", "f", "ext"], expected: formatExpected + " or best", writes: ["f"]) { reading, arguments in
            // `best` is imgproxy Pro's; Imago's free `f=best`.
            guard arguments[0] != "best" else {
                reading.options.format = .best
                return
            }
            guard let format = format(arguments[0]) else { throw arguments.malformed() }
            reading.options.format = .format(format)
        },
        // imgproxy Pro's autoquality, served as Imago's free `q=auto`: by DSSIM only; `none` turns it off.
        Row(
            ["autoquality", "aq"], expected: "dssim:TARGET:MIN_QUALITY:MAX_QUALITY:ALLOWED_ERROR or none",
            arguments: 1...5, writes: ["q"]
        ) { reading, arguments in
            switch arguments[0] {
            case "none": reading.options.autoQuality = nil
            case "dssim":
                // ALLOWED_ERROR is read and not used: the search ends when it has bracketed the target.
                _ = try arguments.decimal(4, in: 0...1, expected: "an allowed error from 0 to 1")
                reading.options.autoQuality = AutoQualityOption(
                    target: try arguments.decimal(1, in: 0...1, expected: "a DSSIM target in (0, 1)"),
                    minQuality: try arguments.int(2, in: 1...100), maxQuality: try arguments.int(3, in: 1...100))
            case "size", "ml":
                throw arguments.unsupported(
                    "autoquality method \(arguments[0] ?? ""): Imago searches by DSSIM only (autoquality:dssim:…; "
                        + "max_bytes bounds the size)")
            default: throw arguments.malformed("dssim or none (size and ml are not served)")
            }
        },
        Row(["strip_metadata", "sm"], expected: "1 or 0", writes: ["strip"]) { reading, arguments in
            reading.options.strip = try arguments.bool(0) ?? true
        },
        Row(["preset", "pr"], expected: "preset names", arguments: 1...16, writes: ["pr"], readsPresets: true) {
            reading, arguments in
            guard arguments.values.allSatisfy({ !$0.isEmpty }) else { throw arguments.malformed() }
            reading.options.presets = arguments.values.map(String.init)
        },
        Row(["expires", "exp"], expected: "a Unix timestamp", writes: ["exp"]) { reading, arguments in
            reading.options.expires = try arguments.int(0, in: 0...9_999_999_999)
        },
        // Only changes the URL (and so its signature), as in imgproxy.
        Row(["cachebuster", "cb"], expected: "a string") { _, _ in },
        Row(["pixelate", "pix"], expected: "a block size in pixels", writes: ["pix"]) { reading, arguments in
            let size = try arguments.int(0, in: 0...10_000) ?? 0
            reading.options.pixelate = size <= 1 ? nil : size
        },
        Row(["auto_rotate", "ar"], expected: "1 or 0", writes: ["ar"]) { reading, arguments in
            reading.options.appliesOrientation = try arguments.bool(0) ?? true
        },
        // imgproxy keeps a copyright notice when it strips metadata; Imago strips all of it or none (`strip`).
        Row(["keep_copyright", "kcr"], expected: "1 or 0") { _, arguments in _ = try arguments.bool(0) },
        // imgproxy may use an embedded thumbnail (HEIC/AVIF) for speed; Imago decodes the image itself, the same
        // pixels at full quality.
        Row(["enforce_thumbnail", "eth"], expected: "1 or 0") { _, arguments in _ = try arguments.bool(0) },
        // The profile: converted to sRGB and dropped by default (imgproxy's 1); 0 keeps it, as strip=0 does.
        Row(["strip_color_profile", "scp"], expected: "1 or 0", writes: ["strip"]) { reading, arguments in
            if try arguments.bool(0) == false { reading.options.strip = false }
        },
    ]

    /// An imgproxy format name as Imago's format.
    static func format(_ name: Substring?) -> ImageFormat? {
        switch name {
        case "jpg", "jpeg": .jpeg
        case let name? where ["png", "webp", "gif", "avif", "jxl", "heic"].contains(name): ImageFormat(String(name))
        default: nil
        }
    }

    /// The options that change the answer rather than the pixels: its download name, the limits a URL tightens
    /// (imgproxy's security options), the source answered unprocessed.
    static let answerRows: [Row] = [
        Row(["filename", "fn"], expected: "NAME[:ENCODED]", arguments: 1...2, writes: ["fn"]) { reading, arguments in
            reading.options.filename = try ProcessingOptions.filename(
                arguments, encoded: try arguments.bool(1) ?? false)
        },
        Row(["return_attachment", "att"], expected: "1 or 0", writes: ["att"]) { reading, arguments in
            reading.options.attachment = try arguments.bool(0) ?? false
        },
        // The security options tighten the service's limits; a looser value is refused naming it (validate), as
        // imgproxy refuses them unless IMGPROXY_ALLOW_SECURITY_OPTIONS.
        Row(["max_src_resolution", "msr"], expected: ProcessingOptions.megapixelsExpected, writes: ["msr"]) {
            reading, arguments in
            reading.options.limits.maxSourcePixels = try ProcessingOptions.megapixels(arguments)
        },
        Row(["max_src_file_size", "msfs"], expected: ProcessingOptions.AnswerValue.bytes.expected, writes: ["msfs"]) {
            reading, arguments in
            reading.options.limits.maxSourceBytes = try ProcessingOptions.AnswerValue.bytes.read(arguments)
        },
        Row(["max_animation_frames", "maf"], expected: ProcessingOptions.AnswerValue.frames.expected, writes: ["maf"]) {
            reading, arguments in
            reading.options.limits.maxFrames = try ProcessingOptions.AnswerValue.frames.read(arguments)
        },
        Row(
            ["max_animation_frame_resolution", "mafr"], expected: ProcessingOptions.megapixelsExpected,
            writes: ["mafr"]
        ) { reading, arguments in
            reading.options.limits.maxFramePixels = try ProcessingOptions.megapixels(arguments)
        },
        Row(["max_result_dimension", "mrd"], expected: ProcessingOptions.AnswerValue.side.expected, writes: ["mrd"]) {
            reading, arguments in
            reading.options.limits.maxResultSide = try ProcessingOptions.AnswerValue.side.read(arguments)
        },
        Row(["skip_processing", "skp"], expected: formatExpected, arguments: 1...16, writes: ["skp"]) {
            reading, arguments in
            reading.options.skipProcessing = Set(
                try arguments.values.map { name in
                    guard let format = format(name) else { throw arguments.malformed() }
                    return format
                })
        },
        Row(["raw"], expected: "1 or 0", writes: ["raw"]) { reading, arguments in
            reading.options.raw = try arguments.bool(0) ?? false
        },
    ]

    /// Options imgproxy has that Imago does not honour, and why.
    static let unsupported: [String: String] = ["preserve_hdr": "no HDR output", "ph": "no HDR output"]
}
