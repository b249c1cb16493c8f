import Foundation
import Imago

/// Writes loaded images into `load --out DIR`, atomically, in `--format` or the source's format.
struct OutputWriter: Sendable {
    let directory: URL
    let format: ImageFormat?
    let registry: PluginRegistry

    /// Encodes `image` and writes it as `name` plus the format's extension.
    func write(_ image: DecodedImage, name: String) throws(ImagoError) {
        let format = format ?? image.format
        guard let encoder = registry.encoder(for: format) else {
            throw ImagoError(.encodingFailed(format: format), "no encoder for \(format)")
        }
        let options = EncodeOptions(allFrames: encoder.supportsAnimation)
        let image = encoder.supportsAnimation || image.frames.count == 1 ? image : (try? image.frame(0)) ?? image
        let data: Data
        do {
            data = try encoder.encode(image, options: options)
        } catch {
            throw ImagoError.wrapping(error)
        }
        let file = directory.appendingPathComponent(name + "." + Self.fileExtension(format), isDirectory: false)
        try AtomicFile.write(data, to: file)
    }

    /// The usual file extension of a format.
    static func fileExtension(_ format: ImageFormat) -> String {
        format == .jpeg ? "jpg" : format.rawValue
    }

    /// The longest name (without extension) taken from a source, in UTF-8 bytes.
    static let maxNameBytes = 240

    /// A file name (without extension) for each source, unique within the batch: the source's file name without its
    /// extension (a slash or backslash in it made "_"), `image` when it has none (data: URIs) or it starts with ".",
    /// with `-2`, `-3`, … added to repeats of a name.
    static func names(for sources: [String]) -> [String] {
        var used: Set<String> = []
        return sources.map { source in
            var base = "image"
            if !source.hasPrefix("data:"), let url = try? ImageRequest.url(from: source) {
                // The component comes percent-decoded: an encoded "/" must not turn the name into a path that
                // climbs out of DIR.
                let component = url.deletingPathExtension().lastPathComponent
                var stem = String(component.map { $0 == "/" || $0 == "\\" || $0 == "\0" ? "_" : $0 })
                // File names hold at most 255 bytes: leave room for "-N" and the extension.
                while stem.utf8.count > Self.maxNameBytes { stem.removeLast() }
                if !component.isEmpty && component != "/" && !stem.hasPrefix(".") { base = stem }
            }
            var name = base
            var number = 1
            while used.contains(name) {
                number += 1
                name = "\(base)-\(number)"
            }
            used.insert(name)
            return name
        }
    }
}
