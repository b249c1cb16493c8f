import Foundation
import Testing

/// The README's quick start runs `imago load Docs/samples/*` and `imago show Docs/samples/imago.png`.
@Suite struct SamplesTests {
    static var samples: [String] {
        let folder = ImagoTool.packageRoot.appendingPathComponent("Docs/samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test func theQuickStartLoadsEverySample() async throws {
        let samples = Self.samples
        #expect(samples.count >= 5)
        let result = try await ImagoTool.run(["load", "--no-cache", "--json"] + samples)
        #expect(result.status == 0, "\(result.stderr)")
        let formats = Set(try result.jsonLines().compactMap { $0["format"] as? String })
        #expect(formats == ["png", "jpeg", "gif", "webp"])
    }

    @Test func theSamplesShowOffOrientationAnimationAndAlpha() async throws {
        let samples = Self.samples
        let lines = try await ImagoTool.run(["info", "--json"] + samples).jsonLines()
        let byName = Dictionary(
            uniqueKeysWithValues: lines.map {
                (URL(fileURLWithPath: $0["source"] as? String ?? "").lastPathComponent, $0)
            })
        #expect(byName["photo.jpg"]?["orientation"] as? Int == 6)
        #expect(byName["spinner.gif"]?["frames"] as? Int == 8)
        #expect(byName["spinner.webp"]?["frames"] as? Int == 8)
        #expect(byName["imago.png"]?["hasAlpha"] as? Bool == true)
        for path in samples {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            #expect(size < 50_000, "\(path) is \(size) bytes")
        }
        let show = try await ImagoTool.run(["show", samples.first { $0.hasSuffix("imago.png") } ?? "", "--width", "40"])
        #expect(show.status == 0)
        #expect(show.lines.count == 13)
    }
}
