import Foundation
import ImagoCore
import ImagoTestSupport

/// The shared conformance corpus (`../shared/corpus`) and what Pillow and ImageMagick decoded from each file
/// (`reference.json`; read its `policy` and `REPORT.md`).
struct CorpusReference: Sendable {
    /// One decoder's verdict on a file.
    struct Verdict: Decodable, Sendable {
        let decodes: Bool
        let width: Int?
        let height: Int?
        let frames: Int?
        let sha256_rgba: String?
        let sha256_rgba_canon: String?
        let error: String?
    }

    /// One corpus file.
    struct Entry: Decodable, Sendable {
        let file: String
        let bytes: Int
        let pillow: Verdict
        let imagemagick: Verdict
        /// identical | identical_canon | near | differ | size_mismatch | pillow_only | im_only | both_fail
        let verdict: String
    }

    private struct Document: Decodable { let files: [Entry] }

    /// The corpus folder.
    let root: URL
    /// Every file with its reference verdicts.
    let entries: [Entry]

    /// The corpus next to the repository (`../shared/corpus`), or `IMAGO_CORPUS` when set; a test calling this
    /// is skipped when the corpus is absent (failed with `IMAGO_REQUIRE_CORPUS=1`).
    static func load() throws -> CorpusReference {
        try SharedCorpus.require()
        return try read()
    }

    /// The corpus, read without the skip (for a shared static: tests then call `SharedCorpus.require()`).
    static func read() throws -> CorpusReference {
        let root = SharedCorpus.root
        let data = try Data(contentsOf: root.appendingPathComponent("reference.json"))
        return CorpusReference(root: root, entries: try JSONDecoder().decode(Document.self, from: data).files)
    }

    /// Entries under a top folder (`pngsuite`, `png-extra`, `jpeg`, `gif`, `webp`).
    func entries(in folder: String) -> [Entry] { entries.filter { $0.file.hasPrefix(folder + "/") } }

    /// The bytes of a corpus file.
    func data(_ entry: Entry) throws -> Data { try Data(contentsOf: root.appendingPathComponent(entry.file)) }

    /// SHA-256 of a raster as tightly packed RGBA8 rows, as `reference.json` hashes frame 0.
    static func sha256(_ raster: Raster) -> String { fastSHA256(raster.pixels) }

    /// `sha256sum` when the system has it (the Swift implementation is slow in debug builds on large
    /// rasters), else `SHA256`.
    static func fastSHA256(_ bytes: [UInt8]) -> String {
        let tool = URL(fileURLWithPath: "/usr/bin/sha256sum")
        guard bytes.count > 64 * 1024, FileManager.default.isExecutableFile(atPath: tool.path) else {
            return SHA256.hex(bytes)
        }
        let process = Process()
        process.executableURL = tool
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return SHA256.hex(bytes) }
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    /// The same with every fully transparent pixel zeroed (`sha256_rgba_canon`).
    static func canonicalSHA256(_ raster: Raster) -> String {
        var pixels = raster.pixels
        for offset in stride(from: 0, to: pixels.count, by: 4) where pixels[offset + 3] == 0 {
            pixels[offset] = 0
            pixels[offset + 1] = 0
            pixels[offset + 2] = 0
        }
        return fastSHA256(pixels)
    }
}
