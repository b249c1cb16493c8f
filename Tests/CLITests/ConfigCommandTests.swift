import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Every command whose synopsis takes `--config` (found in `imago --help`, so a new one is not forgotten) reads
    /// the whole printed default, sections it does not use included.
    @Test func everyCommandTakingConfigAcceptsThePrintedDefault() async throws {
        let fixtures = try Fixtures()
        let printed = try await ImagoTool.run(["config", "--print-default"])
        let config = fixtures.path("imago.json")
        try Data(printed.stdout.utf8).write(to: URL(fileURLWithPath: config))
        let image = try fixtures.redOverBluePNG()
        let help = try await ImagoTool.run(["--help"])
        let commands = help.lines.filter { $0.hasPrefix("  imago ") && $0.contains("--config") }.map {
            $0.dropFirst("  imago ".count).split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(Set(commands) == ["load", "cache", "serve"], "\(help.stdout)")
        for command in commands {
            switch command {
            case "load":
                let result = try await ImagoTool.run(["load", "--config", config, "--no-cache", image])
                #expect(result.status == 0, "load: \(result.stderr)")
            case "cache":
                for action in ["stats", "path", "clear"] {
                    let result = try await ImagoTool.run([
                        "cache", action, "--config", config, "--cache-dir", fixtures.path("cache"),
                    ])
                    #expect(result.status == 0, "cache \(action): \(result.stderr)")
                    #expect(result.stderr.isEmpty, "cache \(action): \(result.stderr)")
                }
            case "serve":
                let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--config", config, "--quiet"])
                #expect(try serve.get("/health").status == 200)
                serve.send(SIGTERM)
                #expect(serve.waitForExit(timeout: 20) == 0)
            default:
                Issue.record("imago \(command) takes --config: add how to run it with the printed default here")
            }
        }
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
