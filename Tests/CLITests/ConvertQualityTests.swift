import Foundation
import Imago
import ImagoTestSupport
import Testing

/// `imago convert --quality auto[:TARGET]` and `--format best`: the search and the choice through the one render
/// path, what was chosen printed, bad input refused.
@Suite struct ConvertQualityTests {
    /// A textured 160×120 PNG: smooth waves over noise, so the qualities differ in what they lose.
    func texture(_ fixtures: Fixtures) throws -> String {
        var pixels: [UInt8] = []
        var seed: UInt32 = 777
        for y in 0..<120 {
            for x in 0..<160 {
                seed = seed &* 1_103_515_245 &+ 12_345
                let noise = Int(seed >> 24) % 40
                let wave = Int(55 * sin(Double(x) / 6) + 45 * cos(Double(y) / 9))
                pixels += [110, 90, 70].map { UInt8(clamping: $0 + wave + noise) } + [255]
            }
        }
        let image = DecodedImage(raster: try Raster(width: 160, height: 120, pixels: pixels), format: .png)
        return try fixtures.write(image, as: .png, name: "texture.png")
    }

    /// `webp q=78; dssim=0.0204 (3 encodes, 5120 bytes)` read back.
    func chosen(_ stdout: String) throws -> (format: String, quality: Int, dssim: Double, encodes: Int) {
        let pattern = #"^(\w+) q=(\d+); dssim=(0\.\d{4}) \((\d+) encodes?, \d+ bytes\)$"#
        let line = try #require(
            stdout.split(separator: "\n").map(String.init).first {
                $0.range(of: pattern, options: .regularExpression) != nil
            }, "\(stdout)")
        let parts = line.split(whereSeparator: { " =;(,".contains($0) }).map(String.init)
        return (parts[0], Int(parts[2])!, Double(parts[4])!, Int(parts[5])!)
    }

    @Test func qualityAutoSearchesAndSaysWhatItChose() async throws {
        let fixtures = try Fixtures()
        let source = try texture(fixtures)
        let output = fixtures.path("out.webp")
        let result = try await ImagoTool.run(["convert", source, "-o", output, "--quality", "auto"])
        #expect(result.status == 0, "\(result.stderr)")
        let auto = try chosen(result.stdout)
        #expect(auto.format == "webp" && (30...95).contains(auto.quality) && auto.dssim <= AutoQuality.defaultTarget)
        #expect((1...AutoQuality.defaultMaxEncodes).contains(auto.encodes))
        #expect(try fixtures.decode(output).format == .webp)
        let strict = try await ImagoTool.run(["convert", source, "-o", output, "--quality", "auto:0.004"])
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(try chosen(strict.stdout).quality > auto.quality)
        // A fixed quality says nothing.
        let fixed = try await ImagoTool.run(["convert", source, "-o", output, "--quality", "70"])
        #expect(fixed.status == 0 && fixed.stdout.isEmpty)
    }

    @Test func formatBestKeepsTheSmallestAndListsItsCandidates() async throws {
        let fixtures = try Fixtures()
        let source = try texture(fixtures)
        let output = fixtures.path("out.image")
        let result = try await ImagoTool.run(["convert", source, "-o", output, "--format", "best"])
        #expect(result.status == 0, "\(result.stderr)")
        let best = try chosen(result.stdout)
        #expect(["avif", "webp", "jxl", "jpeg"].contains(best.format))
        #expect(try fixtures.decode(output).format == ImageFormat(best.format))
        let size = try Data(contentsOf: URL(fileURLWithPath: output)).count
        // No single format at the same target is smaller than the choice by more than the search's step.
        let webp = fixtures.path("single.webp")
        let single = try await ImagoTool.run(["convert", source, "-o", webp, "--quality", "auto"])
        #expect(single.status == 0)
        #expect(size <= (try Data(contentsOf: URL(fileURLWithPath: webp)).count))
        let help = try await ImagoTool.run(["convert", "--help"])
        #expect(help.stdout.contains("best: the smallest of avif, webp, jxl, jpeg, png"), "\(help.stdout)")
        #expect(help.stdout.contains("auto[:TARGET]"))
    }

    @Test func badQualitiesAndFormatsAreRefused() async throws {
        let fixtures = try Fixtures()
        let source = try texture(fixtures)
        let cases: [([String], String)] = [
            (["-o", fixtures.path("o.png"), "--quality", "auto"], "needs a lossy format"),
            (["-o", fixtures.path("o.webp"), "--quality", "auto", "--lossless"], "needs a lossy format"),
            (["-o", fixtures.path("o.webp"), "--quality", "auto:2"], "between 0 and 1"),
            (["-o", fixtures.path("o.webp"), "--quality", "automatic"], "auto:TARGET"),
            (["-o", fixtures.path("o.webp"), "--ops", "q=auto:0.02:90:40"], "minimum first"),
        ]
        for (arguments, message) in cases {
            let result = try await ImagoTool.run(["convert", source] + arguments)
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}

extension ConvertQualityTests {
    @Test func loadRefusesWhatOnlyConvertDoes() async throws {
        let fixtures = try Fixtures()
        let source = try texture(fixtures)
        for ops in ["q=auto", "f=best"] {
            let result = try await ImagoTool.run(["load", source, "--ops", ops, "--out", fixtures.path("out")])
            #expect(result.status != 0 && result.stderr.contains("imago convert --quality auto"), "\(result.stderr)")
        }
    }
}
