import Foundation
import Imago
import Testing

/// `info` names the embedded profile and the decoder's warnings; `convert` writes sRGB, or keeps the profile.
@Suite struct ColorProfileCommandTests {
    /// The committed ICC fixtures (see Scripts/make_icc_fixtures.py).
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ICC/\(name)").path
    }

    static let keep = DecodeOptions(colorProfiles: .keep)

    @Test func infoNamesTheProfileAndListsWarnings() async throws {
        let tagged = Self.fixture("rgb-adobe.jpg")
        let malformed = Self.fixture("malformed.png")
        let result = try await ImagoTool.run(["info", "--json", tagged, malformed])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.jsonLines()
        #expect(lines.count == 2)
        #expect(lines[0]["colorProfile"] as? String == "Compatible with Adobe RGB (1998)")
        #expect((lines[0]["warnings"] as? [String])?.isEmpty == true)
        #expect(lines[1]["colorProfile"] is NSNull)
        let warnings = try #require(lines[1]["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("iCCP") }, "\(warnings)")
        let text = try await ImagoTool.run(["info", tagged, malformed])
        #expect(text.stdout.contains("profile \"Compatible with Adobe RGB (1998)\""))
        #expect(text.stdout.contains("  warning: "), "\(text.stdout)")
    }

    @Test func convertWritesSRGBPixelsAndNoProfile() async throws {
        let fixtures = try Fixtures()
        let output = fixtures.path("out.png")
        #expect(try await ImagoTool.run(["convert", Self.fixture("rgb-romm.png"), "-o", output]).status == 0)
        let written = try PNGCodec().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: Self.keep)
        #expect(written.iccProfile == nil)
        let reference = URL(fileURLWithPath: Self.fixture("rgb-romm.png.expected.png"))
        let expected = try PNGCodec().decode(Data(contentsOf: reference))
        #expect(written.raster == expected.raster)
    }

    @Test func convertKeepProfileKeepsThePixelsAndEmbedsTheProfile() async throws {
        let fixtures = try Fixtures()
        let source = Self.fixture("rgb-romm.png")
        let stored = try PNGCodec().decode(Data(contentsOf: URL(fileURLWithPath: source)), options: Self.keep)
        let decoders: [String: any ImageDecoder] = [
            "kept.png": PNGCodec(), "kept.webp": WebPCodec(), "kept.jpg": JPEGCodec(),
        ]
        for (name, decoder) in decoders {
            let output = fixtures.path(name)
            let result = try await ImagoTool.run(["convert", source, "-o", output, "--keep-profile", "--lossless"])
            #expect(result.status == 0, "\(result.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let written = try decoder.decode(data, options: Self.keep)
            #expect(written.iccProfile == stored.iccProfile, "\(name)")
            if !name.hasSuffix("jpg") { #expect(written.raster == stored.raster, "\(name)") }
        }
    }

    @Test(arguments: ["gray.jpg", "gray.png"])
    func convertKeepProfileKeepsAGreyProfileAndGreyPixels(_ file: String) async throws {
        let fixtures = try Fixtures()
        let source = Self.fixture(file)
        let sourceData = try Data(contentsOf: URL(fileURLWithPath: source))
        let decoder: any ImageDecoder = file.hasSuffix("jpg") ? JPEGCodec() : PNGCodec()
        let stored = try decoder.decode(sourceData, options: DecodeOptions(colorProfiles: .ignore))
        let profile = try #require(try decoder.decode(sourceData, options: Self.keep).iccProfile)
        // The fixture's grey profile moves the pixels, so converting them would show.
        let converted = try decoder.decode(sourceData)
        #expect(Self.maxDifference(stored.raster, converted.raster) > 3)
        for (name, outputDecoder) in [("kept.png", PNGCodec() as any ImageDecoder), ("kept.jpg", JPEGCodec())] {
            let output = fixtures.path(name)
            let result = try await ImagoTool.run([
                "convert", source, "-o", output, "--keep-profile", "--quality", "100",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let written = try outputDecoder.decode(data, options: DecodeOptions(colorProfiles: .ignore))
            let embedded = try outputDecoder.decode(data, options: Self.keep).iccProfile
            #expect(embedded == profile, "\(file) to \(name): the same profile bytes")
            if name.hasSuffix("png") {
                #expect(data[25] == 0, "\(file) to \(name): a grey PNG (colour type 0)")
                #expect(written.raster == stored.raster, "\(file) to \(name)")
            } else {
                #expect(Self.maxDifference(written.raster, stored.raster) <= 2, "\(file) to \(name)")
            }
        }
    }

    static func maxDifference(_ a: Raster, _ b: Raster) -> Int {
        zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    @Test func convertWithAShrinkConvertsAfterTheResize() async throws {
        let fixtures = try Fixtures()
        let output = fixtures.path("small.png")
        let result = try await ImagoTool.run([
            "convert", Self.fixture("rgb-romm.png"), "-o", output, "--max-size", "12",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try PNGCodec().decode(Data(contentsOf: URL(fileURLWithPath: output)), options: Self.keep)
        #expect(written.width == 12 && written.iccProfile == nil)
        // Shrunk in the source's space, then converted: the conversion runs on 12x8 pixels, not 24x16.
        let stored = try PNGCodec().decode(
            Data(contentsOf: URL(fileURLWithPath: Self.fixture("rgb-romm.png"))), options: Self.keep)
        let shrunk = try ColorManagement.convertedToSRGB(
            try ResizeProcessor(width: 12, height: 12, mode: .fit).process(stored))
        #expect(written.raster == shrunk.raster)
    }
}
