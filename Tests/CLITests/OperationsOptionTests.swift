import Foundation
import Imago
import ImagoTestSupport
import Testing

/// `--ops`: serve's options grammar in `imago convert` and `imago load`.
@Suite struct OperationsOptionTests {
    @Test func convertRunsTheOperationsInOrderAndTakesTheFormatFromF() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG()
        let rotated = fixtures.path("rotated.out")
        let result = try await ImagoTool.run(["convert", source, "-o", rotated, "--ops", "crop=0:0:16:4,rot=90,f=png"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try fixtures.decode(rotated)
        #expect(image.format == .png && image.width == 4 && image.height == 16)
        #expect((0..<16).allSatisfy { y in (0..<4).allSatisfy { x in image.raster[x, y] == RGBA(255, 0, 0) } })
        let flagWins = fixtures.path("flag.out")
        let both = try await ImagoTool.run(["convert", source, "-o", flagWins, "--format", "webp", "--ops", "f=png"])
        #expect(both.status == 0)
        #expect(try fixtures.decode(flagWins).format == .webp)
        let padded = fixtures.path("padded.png")
        #expect(
            try await ImagoTool.run(["convert", source, "-o", padded, "--ops", "pad=2,bg=00ff00,flip=v"]).status == 0)
        let pad = try fixtures.decode(padded)
        #expect(pad.width == 20 && pad.height == 12 && pad.raster[0, 0] == RGBA(0, 255, 0))
        #expect(pad.raster[2, 2] == RGBA(0, 0, 255) && pad.raster[2, 9] == RGBA(255, 0, 0))
        let covered = fixtures.path("cover.png")
        let cover = try await ImagoTool.run([
            "convert", source, "-o", covered, "--ops", "crop=0.1:0.1:0.8:0.8,g=sm,w=6,h=6,fit=cover,blur=2",
        ])
        #expect(cover.status == 0, "\(cover.stderr)")
        #expect(try fixtures.decode(covered).width == 6)
    }

    @Test func badOperationsAreUsageErrorsNamingTheItem() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG()
        for (ops, named) in [
            ("blur=nan", "blur=nan"), ("crop=1:2:3", "crop=1:2:3"), ("wm=1:se", "wm"), ("focal=1:1", "focal"),
            ("fn=a", "serve options"), ("raw=1", "serve options"), ("msr=1", "serve options"),
        ] {
            let result = try await ImagoTool.run(["convert", source, "-o", fixtures.path("x.png"), "--ops", ops])
            #expect(result.status == 2, "\(ops)")
            #expect(result.stderr.contains(named), "\(ops): \(result.stderr)")
        }
        let noise = try fixtures.noisePNG(name: "noise.png")
        let tight = try await ImagoTool.run(["convert", noise, "-o", fixtures.path("n.jpg"), "--ops", "maxb=50"])
        #expect(tight.status == 1 && tight.stderr.contains("maxb=50"), "\(tight.stderr)")
        let fits = try await ImagoTool.run(["convert", noise, "-o", fixtures.path("m.jpg"), "--ops", "maxb=3000"])
        #expect(fits.status == 0, "\(fits.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: fixtures.path("m.jpg"))[.size] as? Int ?? .max
        #expect(size <= 3000)
    }

    @Test func loadAppliesTheOperationsToEveryImage() async throws {
        let fixtures = try Fixtures()
        let source = try fixtures.redOverBluePNG(width: 20, height: 40)
        let out = fixtures.path("out")
        let result = try await ImagoTool.run([
            "load", "--no-cache", "--out", out, "--ops", "w=10,h=10,fit=cover,g=s,f=png", source,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(files.count == 1 && files.first?.hasSuffix(".png") == true)
        let image = try fixtures.decode(out + "/" + (files.first ?? ""))
        #expect(image.width == 10 && image.height == 10 && image.raster[5, 5] == RGBA(0, 0, 255))
        let bad = try await ImagoTool.run(["load", "--ops", "g=up", source])
        #expect(bad.status == 2 && bad.stderr.contains("g=up"))
    }
}
