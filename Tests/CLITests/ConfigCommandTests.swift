import Foundation
import Testing

@Suite struct ConfigCommandTests {
    @Test func printsTheDefaultConfigurationAsJSON() async throws {
        let result = try await ImagoTool.run(["config", "--print-default"])
        #expect(result.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let transports = (json?["transports"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        let codecs = (json?["codecs"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        // The HTTP(S) entry names the libcurl transport on Linux (URLSession there spins while it waits).
        #if os(Linux)
            #expect(transports == ["curl", "file", "data"])
        #else
            #expect(transports == ["urlsession", "file", "data"])
        #endif
        #expect(codecs == ["png", "jpeg", "gif", "webp", "avif", "heic", "jxl"])
        #expect((json?["dataCache"] as? [String: Any])?["name"] as? String == "disk")
        #expect((json?["imageCache"] as? [String: Any])?["name"] as? String == "memory")
        #expect(json?["loader"] is [String: Any])
    }

    @Test func theDefaultRoundTripsThroughLoadConfig() async throws {
        let fixtures = try Fixtures()
        let printed = try await ImagoTool.run(["config", "--print-default"])
        let config = fixtures.path("imago.json")
        try Data(printed.stdout.utf8).write(to: URL(fileURLWithPath: config))
        let image = try fixtures.redOverBluePNG()
        let result = try await ImagoTool.run(["load", "--config", config, "--no-cache", "--json", image])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().first?["ok"] as? Bool == true)
    }

    @Test func aConfigurationWithoutAMemoryCacheIsHonoured() async throws {
        let fixtures = try Fixtures()
        let config = fixtures.path("no-memory.json")
        try Data(#"{"imageCache": null, "dataCache": null}"#.utf8).write(to: URL(fileURLWithPath: config))
        let image = try fixtures.redOverBluePNG()
        let result = try await ImagoTool.run(["load", "--config", config, "--json", image, image])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().compactMap { $0["cache"] as? String } == ["network", "network"])
    }

    @Test func aBadConfigurationNamesTheKeyAndExits1() async throws {
        let fixtures = try Fixtures()
        let config = fixtures.path("bad.json")
        try Data(#"{"loader": {"maxConcurrentLods": 4}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let result = try await ImagoTool.run(["load", "--config", config, try fixtures.redOverBluePNG()])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("loader.maxConcurrentLods"))
        #expect(result.stderr.contains(config))
    }
}
