import Foundation
import Testing

@Suite struct BenchCommandTests {
    @Test func benchDecodePrintsMedianAndMinimum() throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let result = try ImagoTool.run(["bench", "decode", path, "--iterations", "3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.jsonLines().first)
        #expect(Set(json.keys) == ["median_ms", "min_ms"])
        let median = try #require((json["median_ms"] as? NSNumber)?.doubleValue)
        let minimum = try #require((json["min_ms"] as? NSNumber)?.doubleValue)
        #expect(minimum >= 0 && minimum <= median)
    }

    @Test func benchPipelineCoalescesIntoOneDecode() throws {
        let fixtures = try Fixtures()
        let first = try fixtures.redOverBluePNG(name: "a.png", width: 64, height: 64)
        let second = try fixtures.animation(as: .gif, name: "b.gif")
        let result = try ImagoTool.run([
            "bench", "pipeline", first, second, "--requests", "50", "--fan-in", "8", "--max-size", "32", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.jsonLines().first)
        #expect(Set(json.keys) == ["memory_hit_us", "miss_ms", "coalesce", "disk_hit_ms"])
        #expect(Set((json["memory_hit_us"] as? [String: Any])?.keys ?? [:].keys) == ["median", "p99"])
        let coalesce = try #require(json["coalesce"] as? [String: Any])
        #expect(coalesce["requests"] as? Int == 8)
        #expect(coalesce["decodes"] as? Int == 1)
        #expect(coalesce["fanin_ms"] != nil)
    }

    @Test func benchDecodeOfAMissingFileFails() throws {
        let result = try ImagoTool.run(["bench", "decode", "/nonexistent/imago.png"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("/nonexistent/imago.png: ") == true)
    }
}
