import Foundation
import Imago

/// `imago-bench video poster FILE [SECONDS [keyframe]]` and `imago-bench video preview FILE SECONDS WIDTH FPS [decode]`: one video
/// poster (the default one, or at a time), or an animated WebP preview streamed frame by frame from a frame source,
/// each in a process of its own, reporting the process's CPU time (user + system) and peak resident memory, which is
/// what the figures of issue 38 are about (not wall time: the machine is shared).
enum VideoBenchmark {
    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2 else {
            print("usage: imago-bench video poster FILE [SECONDS] | preview FILE SECONDS WIDTH FPS")
            exit(2)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
        let codec = VideoCodec()
        let before = usage()
        let description: String
        switch arguments[0] {
        case "poster":
            var options = DecodeOptions(frames: .first)
            if arguments.count > 2 { options.timeline.posterTime = Double(arguments[2]) }
            options.timeline.posterAtKeyframe = arguments.count > 3 && arguments[3] == "keyframe"
            let image = try codec.decode(data, options: options)
            description =
                "poster \(image.width)x\(image.height) at \(arguments.count > 2 ? arguments[2] + " s" : "default")"
        case "preview":
            let seconds = Double(arguments[2]) ?? 5
            let width = Int(arguments[3]) ?? 480
            var options = DecodeOptions(targetSize: PixelSize(width: width, height: width))
            options.timeline.duration = seconds
            options.timeline.maxFrameRate = Double(arguments[4]) ?? 10
            let source = try codec.makeFrameSource(data, options: options)
            let settings = AnimationEncodingSettings(canvasSize: source.canvasSize, loopCount: 0, hasAlpha: false)
            // `decode` as a fifth argument measures the frames alone, without the WebP encoder.
            let encodes = arguments.count <= 5 || arguments[5] != "decode"
            let encoder = try WebPCodec().makeAnimationEncoder(settings, options: EncodeOptions(quality: 75))
            var frames = 0
            while let frame = try source.nextFrame() {
                if encodes { try encoder.add(frame) }
                frames += 1
            }
            let file = encodes ? try encoder.finish() : Data()
            description =
                "preview \(frames) frames \(source.canvasSize) "
                + (encodes ? "webp \(file.count) bytes" : "decoded only")
        default:
            throw CocoaError(.featureUnsupported)
        }
        let after = usage()
        print(
            String(
                format: "%@: CPU %.0f ms after the file was read, peak RSS %.0f MiB (input %.1f MiB)", description,
                (after.cpu - before.cpu) * 1000, after.maxRSS / 1024, Double(data.count) / 1_048_576))
    }

    /// CPU seconds so far and the peak resident set in KiB.
    static func usage() -> (cpu: Double, maxRSS: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return (cpu, Double(usage.ru_maxrss))
    }
}
