import Foundation
import Imago

/// `imago show SRC [--width COLS]`: previews the image in the terminal.
enum ShowCommand: Command {
    static let spec = CommandSpec(
        name: "show", synopsis: "SRC [--width COLS]",
        summary: "Previews the image in the terminal with true-colour half blocks (a character ramp under NO_COLOR).",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: 1),
        flags: [.option("width", "COLS", "columns to use (default: the terminal's width, at most the image's)")])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        let source = arguments.positionals[0]
        let requestedWidth = try arguments.int("width", in: 1...2000)
        do {
            let columnsHint = requestedWidth ?? Console.terminalColumns
            let options = DecodeOptions(targetSize: PixelSize(width: columnsHint, height: columnsHint), frames: .first)
            let image = try await CommandLoader().image(source) { request in
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

}
