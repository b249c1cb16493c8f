import Foundation
import Imago
import Testing

@Suite struct BenchCommandTests {
    @Test func benchDecodePrintsMedianAndMinimum() async throws {
        let fixtures = try Fixtures()
        let path = try fixtures.redOverBluePNG()
        let result = try await ImagoTool.run(["bench", "decode", path, "--iterations", "3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.jsonLines().first)
        #expect(Set(json.keys) == ["median_ms", "min_ms"])
        let median = try #require((json["median_ms"] as? NSNumber)?.doubleValue)
        let minimum = try #require((json["min_ms"] as? NSNumber)?.doubleValue)
        #expect(minimum >= 0 && minimum <= median)
    }

    @Test func benchPipelineCoalescesIntoOneDecode() async throws {
        let fixtures = try Fixtures()
        let first = try fixtures.redOverBluePNG(name: "a.png", width: 64, height: 64)
        let second = try fixtures.animation(as: .gif, name: "b.gif")
        let result = try await ImagoTool.run([
            "bench", "pipeline", first, second, "--requests", "50", "--fan-in", "8", "--max-size", "32", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.jsonLines().first)
        #expect(Set(json.keys) == ["memory_hit_us", "miss_ms", "coalesce", "disk_hit_ms", "thumbnails"])
        #expect(Set((json["memory_hit_us"] as? [String: Any])?.keys ?? [:].keys) == ["median", "p99"])
        let coalesce = try #require(json["coalesce"] as? [String: Any])
        #expect(coalesce["requests"] as? Int == 8)
        #expect(coalesce["decodes"] as? Int == 1)
        #expect(coalesce["fanin_ms"] != nil)
    }

    @Test func benchPipelineReportsTheThumbnailBatchAgainstItsBaseline() async throws {
        let fixtures = try Fixtures()
        let raster = try Fixtures.split(
            width: 320, height: 240, top: RGBA(200, 30, 30), bottom: RGBA(20, 40, 220))
        let files = try (0..<3).map {
            try fixtures.write(DecodedImage(raster: raster, format: .jpeg), as: .jpeg, name: "photo-\($0).jpg")
        }
        let result = try await ImagoTool.run(
            ["bench", "pipeline"] + files + ["--requests", "10", "--fan-in", "2", "--max-size", "64", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.jsonLines().first)
        let thumbnails = try #require(json["thumbnails"] as? [String: Any])
        #expect(
            Set(thumbnails.keys) == [
                "files", "threads", "batch_s", "compute_batch_s", "baseline_s", "ratio", "compute_ratio",
            ])
        #expect(thumbnails["files"] as? Int == 3)
        let threads = try #require(thumbnails["threads"] as? Int)
        #expect((1...3).contains(threads))
        let batch = try #require((thumbnails["batch_s"] as? NSNumber)?.doubleValue)
        let baseline = try #require((thumbnails["baseline_s"] as? NSNumber)?.doubleValue)
        let ratio = try #require((thumbnails["ratio"] as? NSNumber)?.doubleValue)
        #expect(batch > 0 && baseline > 0 && ratio > 0)
        // Printed with ten significant digits each, so equal to that precision.
        #expect(abs(ratio - batch / baseline) <= 1e-8 * ratio)
    }

    @Test func benchPipelineTextNamesTheThumbnailBatchOnlyWithMaxSize() async throws {
        let fixtures = try Fixtures()
        let file = try fixtures.redOverBluePNG(name: "a.png", width: 64, height: 64)
        let sized = try await ImagoTool.run([
            "bench", "pipeline", file, "--requests", "5", "--fan-in", "2", "--max-size", "16",
        ])
        #expect(sized.status == 0, "\(sized.stderr)")
        #expect(sized.stdout.contains("thumbnails:  1 file(s) on 1 thread(s): loader "))
        #expect(sized.stdout.contains("ratio "))
        let unsized = try await ImagoTool.run(["bench", "pipeline", file, "--requests", "5", "--fan-in", "2", "--json"])
        #expect(unsized.status == 0, "\(unsized.stderr)")
        let json = try #require(try unsized.jsonLines().first)
        #expect(json["thumbnails"] == nil)
    }

    @Test func benchDecodeOfAMissingFileFails() async throws {
        let result = try await ImagoTool.run(["bench", "decode", "/nonexistent/imago.png"])
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("/nonexistent/imago.png: ") == true)
    }
}
