import Foundation
import Testing

extension LoadCommandTests {
    @Test func theProxyEnvironmentVariablesAreIgnored() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        // libcurl would send everything to these dead proxies; the transport uses only a configured proxy.
        let deadProxy = "http://127.0.0.1:1"
        let environment: [String: String?] = [
            "http_proxy": deadProxy, "HTTPS_PROXY": deadProxy, "https_proxy": deadProxy, "ALL_PROXY": deadProxy,
            "all_proxy": deadProxy,
        ]
        let result = try await ImagoTool.run(
            ["load", "--json", "--no-cache", server.url("ok.png")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().first?["ok"] as? Bool == true)
    }
}
