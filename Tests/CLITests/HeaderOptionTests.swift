import Foundation
import Imago
import Testing

/// `--header` on `load`, `info` and `convert`, and the credentials it carries splitting the disk cache.
@Suite struct HeaderOptionTests {
    /// Requests the server saw before this one.
    func count(_ server: LoopbackServer) throws -> Int {
        (Int(String(decoding: try Data(contentsOf: URL(string: server.url("count"))!), as: UTF8.self)) ?? 0) - 1
    }

    @Test(arguments: [("auth", "Authorization: Bearer"), ("cookie", "Cookie: session=")])
    func differentCredentialsNeverShareTheDiskCache(path: String, header: String) async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let url = server.url("\(path)/a.png")
        let cache = fixtures.path("cache")
        func load(_ headers: [String]) async throws -> [String: Any] {
            let result = try await ImagoTool.run(
                ["load", "--json", "--cache-dir", cache, url] + headers.flatMap { ["--header", $0] })
            return try #require(try result.jsonLines().first)
        }
        let a = try await load(["\(header)A"])
        #expect(a["ok"] as? Bool == true && a["cache"] as? String == "network")
        let b = try await load(["\(header)B"])
        #expect(b["ok"] as? Bool == true && b["cache"] as? String == "network")
        let none = try await load([])
        #expect(none["ok"] as? Bool == false)
        #expect(none["attempts"] as? Int == 1, "a 401 is not retried")
        #expect((none["error"] as? [String: Any])?["message"] as? String == "401 Unauthorized")
        #expect(try count(server) == 3)
        // The same credential is served from the disk cache, without a fetch.
        let aAgain = try await load(["\(header)A"])
        #expect(aAgain["cache"] as? String == "disk")
        #expect(aAgain["attempts"] as? Int == 0)
        // A header that does not identify a user does not split the cache.
        let other = try await load(["\(header)A", "X-Trace: 1"])
        #expect(other["cache"] as? String == "disk")
        #expect(try count(server) == 4, "no fetch since the last count")
    }

    @Test func infoAndConvertSendTheHeaders() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let url = server.url("auth/a.png")
        let refused = try await ImagoTool.run(["info", url])
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["\(url): 401 Unauthorized"])
        let info = try await ImagoTool.run(["info", "--header", "Authorization: Bearer A", url])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("png 16x8"))
        let out = fixtures.path("out.png")
        let convert = try await ImagoTool.run(["convert", url, "-o", out, "--header", "Authorization:Bearer A"])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test func aHeaderWithoutAColonIsAUsageError() async throws {
        let result = try await ImagoTool.run(["load", "--header", "Authorization Bearer A", "x.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--header expects \"NAME: VALUE\""))
    }
}
