import Foundation
import Imago
import Testing

/// `info`, `convert` and `load` with AVIF, HEIC and JPEG XL, locally and over HTTP from a loopback server; the
/// files are the plugin modules' committed fixtures (made by avifenc, heif-enc and cjxl).
@Suite struct NewFormatsCommandTests {
    static func fixture(_ module: String, _ name: String) -> URL {
        ImagoTool.packageRoot.appendingPathComponent("Tests/\(module)Tests/Fixtures/\(name)")
    }

    static let served: [(module: String, name: String)] = [
        ("AVIF", "still.avif"), ("AVIF", "anim.avif"), ("HEIF", "still.heic"), ("HEIF", "rotated.heic"),
        ("JXL", "lossless.jxl"), ("JXL", "anim.jxl"),
    ]

    @Test func infoDescribesEachFormatOverHTTP() async throws {
        let fixtures = try Fixtures()
        for file in Self.served {
            try FileManager.default.copyItem(
                at: Self.fixture(file.module, file.name), to: URL(fileURLWithPath: fixtures.path(file.name)))
        }
        let server = try LoopbackServer(serving: fixtures.folder)
        let result = try await ImagoTool.run(["info", "--json"] + Self.served.map { server.url($0.name) })
        #expect(result.status == 0, "\(result.stderr)")
        let byName = Dictionary(
            uniqueKeysWithValues: try result.jsonLines().map {
                (URL(string: $0["source"] as? String ?? "")?.lastPathComponent ?? "", $0)
            })
        #expect(byName["still.avif"]?["format"] as? String == "avif")
        #expect(byName["anim.avif"]?["frames"] as? Int == 3)
        #expect(byName["anim.avif"]?["durations"] as? [Double] == [0.1, 0.2, 0.3])
        #expect(byName["still.heic"]?["format"] as? String == "heic")
        #expect(byName["rotated.heic"]?["width"] as? Int == 48)
        #expect(byName["rotated.heic"]?["orientation"] as? Int == 1)
        #expect(byName["lossless.jxl"]?["format"] as? String == "jxl")
        #expect(byName["anim.jxl"]?["frames"] as? Int == 3)
    }

    @Test(arguments: ["avif", "heic", "jxl"])
    func convertWritesTheFormatFromTheFlagOrTheExtension(_ format: String) async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG(width: 24, height: 16)
        let byFlag = fixtures.path("by-flag.out")
        let converted = try await ImagoTool.run(["convert", source, "-o", byFlag, "--format", format, "--lossless"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let image = try fixtures.decode(byFlag)
        #expect(image.format == ImageFormat(format) && image.width == 24 && image.height == 16)
        let original = try fixtures.decode(source).raster
        let delta = zip(image.raster.pixels, original.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
        #expect(delta <= 1)  // HEIC's lossless is within 1 (libheif's GBR rounding); AVIF and JPEG XL are exact
        let byExtension = fixtures.path("picture." + (format == "heic" ? "heif" : format))
        #expect(try await ImagoTool.run(["convert", source, "-o", byExtension, "--quality", "60"]).status == 0)
        #expect(try fixtures.decode(byExtension).format == ImageFormat(format))
    }

    @Test func convertKeepsAnAVIFSequenceWithAllFrames() async throws {
        let fixtures = try Fixtures()
        let output = fixtures.path("again.avif")
        let source = Self.fixture("AVIF", "anim.avif").path
        #expect(try await ImagoTool.run(["convert", source, "-o", output, "--all-frames"]).status == 0)
        let image = try fixtures.decode(output)
        #expect(image.frames.count == 3 && image.durations.map { ($0 * 10).rounded() } == [1, 2, 3])
        let gif = fixtures.path("again.gif")
        #expect(
            try await ImagoTool.run(["convert", Self.fixture("JXL", "anim.jxl").path, "-o", gif, "--all-frames"]).status
                == 0)
        #expect(try fixtures.decode(gif).frames.count == 3)
    }

    @Test func loadFetchesOverHTTPAndWritesTheAskedFormat() async throws {
        let fixtures = try Fixtures()
        for file in Self.served {
            try FileManager.default.copyItem(
                at: Self.fixture(file.module, file.name), to: URL(fileURLWithPath: fixtures.path(file.name)))
        }
        let server = try LoopbackServer(serving: fixtures.folder)
        let out = fixtures.path("out")
        let sources = ["still.avif", "still.heic", "lossless.jxl"].map { server.url($0) }
        let result = try await ImagoTool.run(
            ["load", "--json", "--no-cache", "--out", out, "--format", "jxl"] + sources)
        #expect(result.status == 0, "\(result.stderr)")
        let formats = try result.jsonLines().compactMap { $0["format"] as? String }
        #expect(formats.sorted() == ["avif", "heic", "jxl"])
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".jxl") }
        #expect(written.count == 3)
        for name in written {
            let image = try fixtures.decode(out + "/" + name)
            #expect(image.format == .jxl && image.width == 64 && image.height == 48)
        }
    }
}

/// The CLI contract: one line on standard error per failed source, whatever the codec library says.
extension NewFormatsCommandTests {
    @Test func aTruncatedJPEGXLFileGivesOneErrorLine() async throws {
        let fixtures = try Fixtures()
        let data = try Data(contentsOf: Self.fixture("JXL", "lossless.jxl"))
        let truncated = fixtures.path("truncated.jxl")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        let commands: [[String]] = [["info", truncated], ["convert", truncated, "-o", fixtures.path("out.png")]]
        for arguments in commands {
            let result = try await ImagoTool.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.errorLines.count == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.errorLines.first?.contains("truncated") == true, "\(arguments[0]): \(result.stderr)")
        }
    }
}
