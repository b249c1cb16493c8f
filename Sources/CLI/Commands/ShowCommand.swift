import Foundation
import Imago
import Synchronization

/// `imago show SRC [--width COLS] [--loops N]`: previews the image in the terminal, playing an animation.
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", synopsis: "SRC [--width COLS] [--loops N]",
        summary: "Previews the image in the terminal with true-colour half blocks (a character ramp under NO_COLOR); "
            + "an animation plays, frame by frame (Ctrl-C stops it).",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: 1),
        flags: [
            .option("width", "COLS", "columns to use (default: the terminal's width, at most the image's)"),
            .option(
                "loops", "N",
                "plays an animation at most N times (default: the file's loop count on a terminal, else once)"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let source = arguments.positionals[0]
        let requestedWidth = try arguments.int("width", in: 1...2000)
        do {
            // The source is read once: looked at for an animation, else decoded as a still.
            let loader = CommandLoader()
            let bytes = try await loader.sourceBytes(source)
            if let status = try await playAnimation(
                bytes.data, source: source, loader: loader, arguments: arguments, requestedWidth: requestedWidth)
            {
                return status
            }
            let columnsHint = requestedWidth ?? Console.terminalColumns
            let options = DecodeOptions(targetSize: PixelSize(width: columnsHint, height: columnsHint), frames: .first)
            let image = try await loader.image(source, from: bytes) { request in
                request.decodeOptions = options
                request.processors = [FrameProcessor(index: 0)]
            }.image
            let columns = requestedWidth ?? min(Console.terminalColumns, image.width)
            let raster = try image.scaled(toWidth: columns).raster
            Console.write(Console.noColor ? TerminalPicture.grayscale(raster) : TerminalPicture.trueColor(raster))
            return .success
        } catch {
            Console.report(CommandLoader.named(error, source))
            return .failure
        }
    }

    /// Plays `data` (read from `source`) when it is an animation (by its structure); nil for a still image, shown
    /// as before.
    static func playAnimation(
        _ data: Data, source: String, loader: CommandLoader, arguments: ParsedArguments, requestedWidth: Int?
    ) async throws -> ExitStatus? {
        let loops = try arguments.int("loops", in: 1...1_000_000) ?? (isatty(STDOUT_FILENO) == 1 ? nil : 1)
        let (limits, registry) = (loader.loader.settings.limits, loader.registry)
        // The structure walk is CPU work: on a compute thread, not the cooperative pool.
        guard
            let (decoder, info) = try await WorkExecutor.compute.run({
                try registry.animation(in: data, limits: limits)
            })
        else { return nil }
        let animation = TerminalAnimation(
            columns: requestedWidth ?? min(Console.terminalColumns, info.canvasSize.width), grayscale: Console.noColor)
        let stop = Stopped()
        let interrupt = Interrupt { stop.set() }
        defer { interrupt.stop() }
        // Decoding and drawing block between frames: on a compute thread, not the cooperative pool.
        let outcome = try await WorkExecutor.compute.run {
            let source = try decoder.makeFrameSource(data, options: DecodeOptions(limits: limits))
            return try animation.play(source, maximumLoops: loops) { stop.isSet }
        }
        for warning in outcome.warnings { Console.printError("imago: warning: \(source): \(warning)") }
        return outcome.interrupted ? .interrupted : .success
    }

    /// A flag Ctrl-C sets, read by the playing thread.
    final class Stopped: Sendable {
        private let flag = Mutex(false)
        func set() { flag.withLock { $0 = true } }
        var isSet: Bool { flag.withLock { $0 } }
    }
}
