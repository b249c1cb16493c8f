import Foundation
import Imago

/// `imago info SRC… [--json]`: decodes each source and describes it.
enum InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info", synopsis: "SRC… [--header \"NAME: VALUE\"]… [--json]",
        summary:
            "Decodes each source and describes it: format, size, frames, loop count, orientation, alpha, "
            + "colour profile and what the decoder tolerated; --json adds ThumbHash and BlurHash placeholders.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: nil),
        flags: [
            .toggle("json", "print one JSON object per line per source"),
            .toggle("faces", "with --json: list the faces the `faces` detector (OpenCV) finds, as serve's /info does"),
            HeaderOption.flag,
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let json = arguments.has("json")
        let loader = CommandLoader(headers: try HeaderOption.headers(arguments))
        let detector = arguments.has("faces") ? try loader.registry.makeDetector(named: "faces") : nil
        var failures = 0
        for source in arguments.positionals {
            do {
                // Frames, duration and loops from the file's structure, no pixel decoded; an animation whose frames
                // together break the limits is then described from its first frame only. The source is read once.
                let sourceBytes = try await loader.sourceBytes(source)
                let video = await videoInfo(sourceBytes.data, loader: loader)
                let animation = video == nil ? await animationInfo(sourceBytes.data, loader: loader) : nil
                let limits = loader.loader.settings.limits
                let decodesFirstOnly =
                    animation.map {
                        (try? limits.check(
                            frames: $0.frameCount, width: $0.canvasSize.width, height: $0.canvasSize.height,
                            format: .gif)) == nil
                    } ?? false
                // The image as stored: its orientation is described, not applied.
                let response = try await loader.image(source, from: sourceBytes) {
                    $0.appliesOrientation = false
                    if decodesFirstOnly { $0.decodeOptions.frames = .first }
                }
                let (image, bytes) = (response.image, response.metrics.byteCount)
                if json {
                    // The placeholders are CPU-bound: on the compute threads, not the cooperative pool.
                    let info = try await WorkExecutor.compute.run {
                        try ImageInfo(image: image, orientation: image.orientation, bytes: bytes)
                    }
                    var object = describeJSON(image, info: info, source: source, animation: animation)
                    if case .object(var fields) = object {
                        // The same objects as serve's /info: `video`, and `faces` (the image here is unprocessed:
                        // its output is the upright source).
                        if let video { fields.append(("video", JSONOutput(video.json))) }
                        if let detector {
                            let found = try await loader.loader.detect(
                                detector, in: sourceBytes, for: try loader.request(source))
                            let faces = ImageInfo.faces(
                                found, output: PixelSize(width: info.width, height: info.height))
                            fields.append(
                                ("faces", JSONOutput(ImageInfo.facesJSON(faces.regions, in: faces.in, output: true))))
                        }
                        object = .object(fields)
                    }
                    Console.print(object.text)
                } else {
                    let text = describeText(image, source: source, bytes: bytes, animation: animation)
                    Console.print(video.map { text + "\n  " + describeVideo($0) } ?? text)
                }
            } catch {
                failures += 1
                let error = ImagoError.wrapping(error, source: source)
                Console.report(error, source: source)
                if json { Console.print(errorJSON(error, source: source).text) }
            }
        }
        return ExitStatus(failures: failures)
    }

    /// `serve`'s `/info` fields (`ImageInfo`: `width` and `height` upright, `iccProfile`, `thumbhash`,
    /// `blurhash`, …) with the source, the stored size, the loop count, `colorProfile` and the warnings.
    static func describeJSON(
        _ image: DecodedImage, info: ImageInfo, source: String, animation: AnimationInfo? = nil
    ) -> JSONOutput {
        let profile: JSONOutput = info.iccProfile.map { .string($0) } ?? .null
        let frames = animation?.frameCount ?? info.frames
        let loopCount = animation?.loopCount ?? image.loopCount
        // Every frame's duration when every frame was decoded; an animation described from its first frame has
        // only its total (from the file's structure), never a list shorter than its frames.
        let decodedEveryFrame = info.frames == frames
        let durations: JSONOutput =
            decodedEveryFrame ? .array(info.durations.map { JSONOutput.rounded($0, digits: 4) }) : .null
        let total = animation?.totalDuration ?? info.durations.reduce(0, +)
        return .object([
            ("source", .string(source)),
            ("format", .string(info.format)),
            ("width", .int(info.width)),
            ("height", .int(info.height)),
            ("storedWidth", .int(image.width)),
            ("storedHeight", .int(image.height)),
            ("frames", .int(frames)),
            ("loopCount", .int(loopCount)),
            ("durations", durations),
            ("totalDuration", JSONOutput.rounded(total, digits: 4)),
            ("orientation", .int(info.orientation)),
            ("hasAlpha", .bool(info.hasAlpha)),
            ("bytes", .int(info.bytes)),
            ("iccProfile", profile),
            ("colorProfile", profile),
            ("thumbhash", .string(info.thumbhash)),
            ("blurhash", .string(info.blurhash)),
            ("warnings", .array(image.warnings.map { .string($0) })),
        ])
    }

    /// The object a failed source gives with `--json`.
    static func errorJSON(_ error: ImagoError, source: String) -> JSONOutput {
        .object([
            ("source", .string(source)),
            ("error", .object([("kind", .string(error.kind.name)), ("message", .string(error.reason))])),
        ])
    }

    static func describeText(
        _ image: DecodedImage, source: String, bytes: Int, animation: AnimationInfo? = nil
    ) -> String {
        var parts = ["\(image.format.rawValue) \(image.width)x\(image.height)"]
        let frames = animation?.frameCount ?? image.frames.count
        if frames > 1 {
            let total = animation?.totalDuration ?? image.durations.reduce(0, +)
            let loopCount = animation?.loopCount ?? image.loopCount
            let loops = loopCount == 0 ? "loops forever" : "plays \(loopCount)x"
            parts.append("\(frames) frames, \(String(format: "%.2f", total)) s, \(loops)")
        }
        if image.orientation != .up { parts.append("orientation \(image.orientation.rawValue)") }
        parts.append(image.hasAlpha ? "alpha" : "opaque")
        if let profile = image.colorProfileDescription { parts.append("profile \"\(profile)\"") }
        parts.append(ByteFormat.string(bytes))
        let line = "\(source): " + parts.joined(separator: ", ")
        // What the decoder tolerated (corrupt data decoded past, a profile ignored), one indented line each.
        return ([line] + image.warnings.map { "  warning: \($0)" }).joined(separator: "\n")
    }

    /// What `data`'s structure says about its animation, when its decoder reads that (GIF, WebP, AVIF).
    static func animationInfo(_ data: Data, loader: CommandLoader) async -> AnimationInfo? {
        let limits = loader.loader.settings.limits
        guard let decoder = try? loader.registry.decoder(for: data, limits: limits) as? any AnimationInfoReading
        else { return nil }
        // A structure the reader cannot follow is left to the decode, which reports it.
        return try? await WorkExecutor.compute.run { try decoder.animationInfo(data, limits: limits) }
    }

    /// A video's facts from its container (no frame decoded), when the source is one.
    static func videoInfo(_ data: Data, loader: CommandLoader) async -> VideoInfo? {
        let limits = loader.loader.settings.limits
        guard let codec = try? loader.registry.decoder(for: data, limits: limits) as? VideoCodec else { return nil }
        return try? await WorkExecutor.compute.run { try codec.videoInfo(data, limits: limits) }
    }

    /// `video: mov,mp4,m4a,3gp,3g2,mj2 h264 1920x1080, 60.00 s at 30 fps (1800 frames), turned 90°`.
    static func describeVideo(_ video: VideoInfo) -> String {
        var line =
            "video: \(video.container) \(video.codec) \(video.width)x\(video.height), "
            + String(format: "%.2f s at %.3g fps (%d frames)", video.duration, video.frameRate, video.frameCount)
        if video.rotation != 0 { line += ", turned \(video.rotation)°" }
        return line
    }
}
