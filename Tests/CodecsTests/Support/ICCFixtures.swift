import Foundation
import ImagoCodecs
import ImagoCore

/// The ICC fixtures `Scripts/make_icc_fixtures.py` generated (committed under Tests/Fixtures/ICC): images tagged
/// with real profiles (colord-data, icc-profiles-free, Ghostscript) and, for each, Pillow's
/// `ImageCms.profileToProfile` (perceptual) of the stored pixels to sRGB as an untagged PNG.
enum ICCFixtures {
    struct Entry: Decodable, Sendable, CustomStringConvertible {
        let file: String
        let reference: String
        let tolerance: Int
        let what: String
        var description: String { file }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/ICC")

    static let entries: [Entry] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    static let decoders: [any ImageDecoder] = [JPEGCodec(), PNGCodec(), WebPCodec()]

    /// Decodes a fixture with the decoder that sniffs it.
    static func decode(_ name: String, options: DecodeOptions = .default) throws -> DecodedImage {
        try decode(data(name), options: options)
    }

    static func decode(_ data: Data, options: DecodeOptions = .default) throws -> DecodedImage {
        let header = data.prefix(ImageFormat.sniffLength)
        guard let decoder = decoders.first(where: { $0.canDecode(header) }) else {
            throw ImagoError(.decodingFailed(format: nil), "no decoder for the fixture")
        }
        return try decoder.decode(data, options: options)
    }

    /// The largest difference of any colour channel, and whether alpha is equal everywhere.
    static func difference(_ a: Raster, _ b: Raster) -> (color: Int, alphaEqual: Bool) {
        precondition(a.width == b.width && a.height == b.height)
        var color = 0
        var alphaEqual = true
        for (index, (x, y)) in zip(a.pixels, b.pixels).enumerated() {
            if index % 4 == 3 {
                alphaEqual = alphaEqual && x == y
            } else {
                color = max(color, abs(Int(x) - Int(y)))
            }
        }
        return (color, alphaEqual)
    }
}
