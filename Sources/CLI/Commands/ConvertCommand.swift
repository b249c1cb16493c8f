import Foundation
import Imago

/// `imago convert SRC -o DEST …`: decodes SRC and writes DEST in another format, size or frame.
enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        synopsis: "SRC -o DEST [--format \(OutputFormatNames.summary)] [--quality Q] [--lossless] "
            + "[--max-size N | --resize WxH [--mode fit|fill]] [--frame N] [--all-frames] [--ignore-orientation] "
            + "[--keep-profile] [--ops OPTIONS] [--header \"NAME: VALUE\"]…",
        summary: "Decodes SRC and writes DEST; the format comes from --format or DEST's extension.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: 1),
        flags: [
            .option("output", "DEST", short: "o", "where to write (written atomically)"),
            .option("format", "F", "output format: \(OutputFormatNames.summary) (default: from DEST's extension)"),
            .option("quality", "Q", "quality 0-100 for lossy formats (default 85)"),
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
        // --format, else `f` in --ops, else DEST's extension.
        let format =
            try arguments.string("format") == nil
            ? ops?.namedFormat ?? outputFormat(arguments, destination: destination)
            : outputFormat(arguments, destination: destination)
        let quality = try arguments.int("quality", in: 0...100) ?? ops?.quality ?? 85
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
        let allFrames = arguments.has("all-frames") && encoder.supportsAnimation
        let keepProfile = arguments.has("keep-profile") || ops?.strip == false
        let data: Data
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
                format: .format(format),
                options: EncodeOptions(
                    quality: quality, lossless: arguments.has("lossless"), allFrames: allFrames,
                    background: ops?.flattenBackground ?? .white),
                maxBytes: ops?.maxBytes, frame: frame)
            output.maxBytesSpelling = ops?.maxBytes.map { "maxb=\($0)" }
            data = try await loader.render(RenderRequest(image: request, output: output), source: source).data
        } catch {
            Console.report(CommandLoader.named(error, source))
            return .failure
        }
        do {
            try AtomicFile.write(data, to: URL(fileURLWithPath: destination))
        } catch {
            Console.report(error)
            return .failure
        }
        return .success
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
