import Foundation
import Testing

@Suite struct CacheCommandTests {
    @Test func pathFollowsTheFlagThenTheEnvironment() async throws {
        let flagged = try await ImagoTool.run(["cache", "path", "--cache-dir", "/tmp/imago-flagged"])
        #expect(flagged.stdout == "/tmp/imago-flagged\n")
        let environment = try await ImagoTool.run(
            ["cache", "path"], environment: ["IMAGO_CACHE_DIR": "/tmp/imago-env"])
        #expect(environment.stdout == "/tmp/imago-env\n")
        let fallback = try await ImagoTool.run(
            ["cache", "path"], environment: ["IMAGO_CACHE_DIR": nil, "XDG_CACHE_HOME": "/x"])
        #expect(fallback.stdout == "/x/imago\n")
    }

    @Test func statsAndClearSeeWhatALoadCached() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let cacheDir = fixtures.path("cache")
        let load = try await ImagoTool.run(["load", server.url("ok.png")], environment: ["IMAGO_CACHE_DIR": cacheDir])
        #expect(load.status == 0, "\(load.stderr)")
        let stats = try await ImagoTool.run(["cache", "stats"], environment: ["IMAGO_CACHE_DIR": cacheDir])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("entries: 1"))
        let clear = try await ImagoTool.run(["cache", "clear", "--cache-dir", cacheDir])
        #expect(clear.status == 0)
        let after = try await ImagoTool.run(["cache", "stats", "--cache-dir", cacheDir])
        #expect(after.stdout.contains("entries: 0"))
    }
}
