import Foundation
import Testing

/// `load --preset NAME`: processors named in the configuration file.
@Suite struct LoadPresetTests {
    @Test func aPresetFromTheConfigurationRunsOnEachImage() async throws {
        let fixtures = try Fixtures()
        let image = try fixtures.redOverBluePNG(name: "a.png")
        let config = fixtures.path("imago.json")
        try Data(
            #"{"processing": {"tiny": [{"name": "resize", "settings": {"width": 4, "height": 4}}]}}"#.utf8
        ).write(to: URL(fileURLWithPath: config))
        let result = try await ImagoTool.run([
            "load", "--json", "--no-cache", "--config", config, "--preset", "tiny", image,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(try result.jsonLines().first)
        #expect(line["width"] as? Int == 4)
        #expect(line["height"] as? Int == 2)

        let unknown = try await ImagoTool.run(["load", "--no-cache", "--config", config, "--preset", "huge", image])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains(#"unknown processing preset "huge" (known: "tiny")"#), "\(unknown.stderr)")
    }
}
