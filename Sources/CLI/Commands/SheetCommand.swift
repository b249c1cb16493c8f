import Foundation
import Imago

/// `imago sheet SRC… -o SHEET.png [--cell N] [--columns N]`: a contact sheet of thumbnails.
enum SheetCommand: Command {
    static let spec = CommandSpec(
        name: "sheet", synopsis: "SRC… -o SHEET.png [--cell N] [--columns N]",
        summary: "Draws a contact sheet: a grid of thumbnails with each source's name under it; failed sources are "
            + "drawn as cells marked with a red X. Written as PNG.",
        positionals: PositionalSpec(name: "SRC", minimum: 1, maximum: nil),
        flags: [
            .option("output", "SHEET.png", short: "o", "where to write the PNG (written atomically)"),
            .option("cell", "N", "thumbnail size in pixels (default \(SheetLayout.defaultCell))"),
            .option("columns", "N", "thumbnails a row (default: up to \(SheetLayout.defaultColumns))"),
        ])

    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus {
        guard let destination = arguments.string("output") else { throw UsageError("missing -o SHEET.png") }
        let sources = arguments.positionals
        let layout = SheetLayout(
            count: sources.count, cell: try arguments.int("cell", in: 8...4096) ?? SheetLayout.defaultCell,
            columns: try arguments.int("columns", in: 1...1000))
        do {
            // The canvas grows with --cell, --columns and the source count: bound it before decoding anything.
            try DecodeLimits.default.check(width: layout.width, height: layout.height, format: .png)
        } catch {
            Console.report(ImagoError.wrapping(error, source: destination))
            return .failure
        }
        let loader = CommandLoader()
        guard let encoder = loader.registry.encoder(for: .png) else {
            throw ImagoError(.encodingFailed(format: .png), "no PNG encoder is registered")
        }
        let thumbnails = await makeThumbnails(sources, cell: layout.cell, loader: loader)
        var canvas = Canvas(width: layout.width, height: layout.height, background: SheetLayout.background)
        var failures = 0
        for (index, source) in sources.enumerated() {
            switch thumbnails[index] {
            case .success(let raster):
                layout.drawThumbnail(raster, at: index, label: label(for: source), on: &canvas)
            case .failure(let error):
                failures += 1
                Console.report(error, source: source)
                layout.drawFailure(at: index, label: label(for: source), on: &canvas)
            }
        }
        do {
            let data = try encoder.encode(DecodedImage(raster: try canvas.raster(), format: .png), options: .default)
            try AtomicFile.write(data, to: URL(fileURLWithPath: destination))
        } catch {
            Console.report(ImagoError.wrapping(error, source: destination))
            return .failure
        }
        return ExitStatus(failures: failures)
    }

    /// Decodes every source into a thumbnail that fits the cell, a few at a time, in the sources' order.
    static func makeThumbnails(_ sources: [String], cell: Int, loader: CommandLoader) async
        -> [Result<Raster, ImagoError>]
    {
        let box = PixelSize(width: cell, height: cell)
        let options = DecodeOptions(targetSize: box, frames: .first)
        return await withTaskGroup(of: (Int, Result<Raster, ImagoError>).self) { group in
            var results = [Result<Raster, ImagoError>](
                repeating: .failure(ImagoError(.cancelled, "")), count: sources.count)
            var next = 0
            func addNext() {
                guard next < sources.count else { return }
                let index = next
                next += 1
                group.addTask {
                    do {
                        let image = try await loader.image(sources[index]) { request in
                            request.decodeOptions = options
                            request.processors = [FrameProcessor(index: 0), ResizeProcessor(size: box, mode: .fit)]
                        }.image
                        return (index, .success(image.raster))
                    } catch {
                        return (index, .failure(CommandLoader.named(error, sources[index])))
                    }
                }
            }
            for _ in 0..<4 { addNext() }
            for await (index, result) in group {
                results[index] = result
                addNext()
            }
            return results
        }
    }

    /// The name drawn under a cell: the file name of a path or URL, `data:` for data URIs.
    static func label(for source: String) -> String {
        if source.hasPrefix("data:") { return "data:" }
        let trimmed = source.split(separator: "?").first.map(String.init) ?? source
        return trimmed.split(separator: "/").last.map(String.init) ?? source
    }
}
