import Foundation
import Imago

/// `imago convert SRC -o DEST …`: decodes SRC and writes DEST in another format, size or frame.
enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        synopsis: "SRC -o DEST [--format \(OutputFormatNames.summary)|best] [--quality Q|auto[:TARGET]] [--lossless] "
            + "[--max-size N | --resize WxH [--mode fit|fill]] [--frame N] [--all-frames] [--ignore-orientation] "
            + "[--keep-profile] [--ops OPTIONS] [--header \"NAME: VALUE\"]…",
        summary: "Decodes SRC and writes DEST; the format comes from --format or DEST's extension.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: 1),
        flags: [
            .option("output", "DEST", short: "o", "where to write (written atomically)"),
            .option("format", "F", formatHelp),
            .option("quality", "Q", qualityHelp),
            .toggle("lossless", "lossless WebP, AVIF, JPEG XL or HEIC (HEIC within 1 per channel)"),
            .option("max-size", "N", "shrink to fit within NxN (never enlarges)"),
            .option("resize", "WxH", "scale to WxH (see --mode)"),
            .option("mode", "fit|fill", "with --resize: fit inside (default) or fill and crop"),
            .option("frame", "N", "write only frame N (0-based), fully composited"),
            .toggle("all-frames", "keep every frame when the output format can hold an animation"),
            .toggle("ignore-orientation", "keep the pixels as stored instead of turning them upright"),
            .toggle(
                "keep-profile",
                "keep an RGB or grey source's pixels and embed its ICC profile (default: convert to sRGB)"),
            .option(
                "ops", "OPTIONS",
                "serve's processing options (\"crop=0.1:0.1:0.8:0.8,g=sm,w=300,h=300,fit=cover,blur=2\"), after "
                    + "--resize/--max-size; f, q, bg, strip and maxb apply to the output"),
            HeaderOption.flag,
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let source = arguments.positionals[0]
        guard let destination = arguments.string("output") else { throw UsageError("missing -o DEST") }
        let ops = try OperationsOption.parse(arguments)
        // --format, else `f` in --ops, else DEST's extension; `best` chooses among `bestCandidates`.
        let best = arguments.string("format") == "best" || (arguments.string("format") == nil && ops?.format == .best)
        let format =
            best
            ? BestFormat.preferredOrder[0]
            : try arguments.string("format") == nil
                ? ops?.namedFormat ?? outputFormat(arguments, destination: destination)
                : outputFormat(arguments, destination: destination)
        let (fixedQuality, autoQuality) = try qualityArgument(arguments, ops: ops, best: best)
        let quality = fixedQuality ?? 85
        let maxSize = try arguments.int("max-size", in: 1...65_535)
        let resize = try arguments.size("resize")
        let mode = try arguments.choice("mode", ["fit", "fill"])
        let frame = try arguments.int("frame", in: 0...1_000_000) ?? ops?.frame
        if maxSize != nil && resize != nil { throw UsageError("give --max-size or --resize, not both") }
        if mode != nil && resize == nil { throw UsageError("--mode goes with --resize") }
        if frame != nil && arguments.has("all-frames") { throw UsageError("give --frame or --all-frames, not both") }

        let loader = CommandLoader(headers: try HeaderOption.headers(arguments))
        guard let encoder = loader.registry.encoder(for: format) else {
            throw ImagoError(.encodingFailed(format: format), "no encoder for \(format)", source: destination)
        }
        if autoQuality != nil, !best, !format.hasQualitySetting || arguments.has("lossless") {
            throw UsageError(
                "--quality auto needs a lossy format (jpeg, webp, avif, jxl or heic), not "
                    + (arguments.has("lossless") ? "--lossless" : format.rawValue))
        }
        // The loader's render path decodes, turns upright, runs the processors (the size asked for, then --ops)
        // and encodes: an animation into an animated format frame by frame, anything else whole.
        var processors: [any ImageProcessor] = []
        if let maxSize {
            processors.append(ResizeProcessor(width: maxSize, height: maxSize, mode: .fit))
        } else if let resize {
            processors.append(
                ResizeProcessor(
                    width: resize.width, height: resize.height, mode: mode == "fill" ? .fill : .fit, upscale: true))
        }
        if let ops { processors += try OperationsOption.processors(ops) }
        let allFrames = arguments.has("all-frames") && (best || encoder.supportsAnimation)
        let keepProfile = arguments.has("keep-profile") || ops?.strip == false
        let rendered: RenderResult
        do {
            var request = try loader.request(source)
            request.appliesOrientation = !arguments.has("ignore-orientation")
            // A still image keeps its profile through the resize and is converted to sRGB after it, which converts
            // fewer pixels when shrinking (CMYK is converted at decode); an animation is converted as it decodes,
            // frame by frame.
            if keepProfile || !allFrames { request.decodeOptions.colorProfiles = .keep }
            if !keepProfile && !allFrames { processors.append(SRGBProcessor()) }
            request.processors = processors
            var output = RenderOutput(
                format: best ? .best(among: BestFormat.preferredOrder) : .format(format),
                options: EncodeOptions(
                    quality: quality, lossless: arguments.has("lossless"), allFrames: allFrames,
                    background: ops?.flattenBackground ?? .white),
                maxBytes: ops?.maxBytes, frame: frame)
            output.maxBytesSpelling = ops?.maxBytes.map { "maxb=\($0)" }
            output.autoQuality = autoQuality
            rendered = try await loader.render(RenderRequest(image: request, output: output), source: source)
        } catch {
            Console.report(CommandLoader.named(error, source))
            return .failure
        }
        do {
            try AtomicFile.write(rendered.data, to: URL(fileURLWithPath: destination))
        } catch {
            Console.report(error)
            return .failure
        }
        if let decision = rendered.quality {
            // What was chosen, on standard error when the image itself goes to standard output.
            let encodes = rendered.encodes.values.reduce(0, +)
            let line =
                "\(decision.format.rawValue) \(decision.headerValue.isEmpty ? "lossless" : decision.headerValue) "
                + "(\(encodes) encode\(encodes == 1 ? "" : "s"), \(rendered.data.count) bytes)"
            if destination == "/dev/stdout" || destination == "-" {
                Console.printError(line)
            } else {
                Console.print(line)
            }
        }
        return .success
    }

    static let formatHelp =
        "output format: \(OutputFormatNames.summary) (default: from DEST's extension), or best: the smallest of "
        + bestCandidates + " (JPEG for opaque images, PNG for ones with alpha) at --quality, by default at auto"
    static let defaultTarget = String(AutoQuality.defaultTarget)
    static let qualityHelp =
        "quality 0-100 for lossy formats (default 85), or auto[:TARGET]: the lowest quality whose output is within "
        + "a DSSIM target (default " + defaultTarget + ") of the image, searched from 30 to 95"

    /// The formats `--format best` tries, for the help text.
    static let bestCandidates = BestFormat.preferredOrder.map(\.rawValue).joined(separator: ", ")

    /// `--quality Q` or `--quality auto[:TARGET]` (else `q` in --ops): a fixed quality, or the search's settings;
    /// `--format best` without a quality searches.
    static func qualityArgument(_ arguments: ParsedArguments, ops: ProcessingOptions?, best: Bool) throws(UsageError)
        -> (Int?, AutoQuality?)
    {
        guard let text = arguments.string("quality"), text.hasPrefix("auto") else {
            if let fixed = try arguments.int("quality", in: 0...100) ?? ops?.quality { return (fixed, nil) }
            if let option = ops?.autoQuality {
                do {
                    return (nil, try option.settings(over: AutoQuality()))
                } catch {
                    throw UsageError("--ops: \(error)")
                }
            }
            return (nil, best ? AutoQuality() : nil)
        }
        var settings = AutoQuality()
        if text != "auto" {
            guard text.hasPrefix("auto:"), let target = Double(text.dropFirst(5)) else {
                throw UsageError("--quality: expected a number from 0 to 100, auto or auto:TARGET, not \"\(text)\"")
            }
            settings.target = target
        }
        do {
            try settings.validate()
        } catch {
            throw UsageError("--quality: \(error)")
        }
        return (nil, settings)
    }

    /// `--format`, else the format DEST's extension names.
    static func outputFormat(_ arguments: ParsedArguments, destination: String) throws(UsageError) -> ImageFormat {
        if let name = try arguments.choice("format", OutputFormatNames.choices) {
            return OutputFormatNames.format(name) ?? ImageFormat(name)
        }
        let pathExtension = URL(fileURLWithPath: destination).pathExtension
        guard let format = OutputFormatNames.format(pathExtension) else {
            throw UsageError(
                "cannot tell the format from \"\(destination)\": give --format \(OutputFormatNames.summary)")
        }
        return format
    }
}
