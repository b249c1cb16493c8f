import Foundation
import Imago

/// The flags of `imago load`, checked.
struct LoadOptions: Sendable {
    let sources: [String]
    let outputDirectory: URL?
    let maxSize: Int?
    let format: ImageFormat?
    let concurrency: Int?
    let retries: Int?
    let timeout: Double?
    let configFile: String?
    let noCache: Bool
    let cacheDirectory: String?
    let json: Bool
    let headers: [String: String]
    let preset: String?
    /// `--ops`: serve's options grammar.
    let ops: ProcessingOptions?
    let opsProcessors: [any ImageProcessor]
    /// Print a JSON line per preview while a source arrives (`--previews`, with `--json`).
    let previews: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        sources = arguments.positionals
        outputDirectory = arguments.string("out").map { URL(fileURLWithPath: $0, isDirectory: true) }
        maxSize = try arguments.int("max-size", in: 1...65_535)
        ops = try OperationsOption.parse(arguments)
        if ops?.autoQuality != nil || ops?.format == .best {
            throw UsageError(
                "--ops: q=auto and f=best choose an encoding: use imago convert --quality auto, --format best")
        }
        opsProcessors = try ops.map { options throws(UsageError) in try OperationsOption.processors(options) } ?? []
        format =
            try arguments.choice("format", OutputFormatNames.choices).map {
                OutputFormatNames.format($0) ?? ImageFormat($0)
            } ?? ops?.namedFormat
        concurrency = try arguments.int("concurrency", in: 1...1024)
        retries = try arguments.int("retries", in: 0...99)
        timeout = try arguments.seconds("timeout")
        configFile = arguments.string("config")
        noCache = arguments.has("no-cache")
        cacheDirectory = arguments.string("cache-dir")
        json = arguments.has("json")
        headers = try HeaderOption.headers(arguments)
        preset = arguments.string("preset")
        previews = arguments.has("previews")
        if previews && !json { throw UsageError("--previews prints JSON lines: give --json too") }
        if noCache && cacheDirectory != nil { throw UsageError("give --no-cache or --cache-dir, not both") }
    }

    /// The request for `source`, or an error naming it (control characters, not a URL).
    func request(for source: String, preset: [any ImageProcessor] = []) throws(ImagoError) -> ImageRequest {
        let url: URL
        do {
            url = try ImageRequest.url(from: source)
        } catch {
            throw CommandLoader.named(error, source)
        }
        var request = ImageRequest(url: url, processors: preset + opsProcessors, headers: headers)
        if let maxSize {
            let box = PixelSize(width: maxSize, height: maxSize)
            request.processors.append(ResizeProcessor(size: box, mode: .fit))
            // Crop and trim work in the full-size source's pixels: no reduced decode before them.
            if ops.map({ $0.crop == nil && $0.trim == nil }) ?? true { request.decodeOptions.targetSize = box }
        }
        if ops?.strip == false { request.decodeOptions.colorProfiles = .keep }
        if noCache { request.cachePolicy = .none }
        return request
    }
}
