import Foundation
import Imago
import Testing

@Suite struct LoadCommandTests {
    static let keys: Set<String> = ["source", "ok", "format", "width", "height", "frames", "cache", "attempts", "ms"]

    @Test func loadsFromALoopbackServerWithOneErrorLinePerFailure() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let good = server.url("ok.png")
        let missing = server.url("missing.png")
        let injected = server.url("ok.png") + "\r\nX-Injected: 1"
        let cacheDir = fixtures.path("cache")
        let result = try await ImagoTool.run(["load", "--json", "--cache-dir", cacheDir, good, missing, injected])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.count == 3)
        let bySource = Dictionary(uniqueKeysWithValues: lines.map { ($0["source"] as? String ?? "", $0) })
        let ok = try #require(bySource[good])
        #expect(Set(ok.keys) == Self.keys)
        #expect(ok["ok"] as? Bool == true)
        #expect(ok["format"] as? String == "png")
        #expect(ok["width"] as? Int == 16)
        #expect(ok["height"] as? Int == 8)
        #expect(ok["frames"] as? Int == 1)
        #expect(ok["cache"] as? String == "network")
        #expect(ok["attempts"] as? Int == 1)
        #expect(ok["ms"] is Double || ok["ms"] is Int)
        let notFound = try #require(bySource[missing])
        #expect(Set(notFound.keys) == Self.keys.union(["error"]))
        #expect(notFound["ok"] as? Bool == false)
        #expect(notFound["cache"] as? String == "none")
        #expect((notFound["error"] as? [String: Any])?["message"] as? String == "404 Not Found")
        let refused = try #require(bySource[injected])
        #expect(refused["ok"] as? Bool == false)
        #expect(refused["attempts"] as? Int == 0)
        #expect((refused["error"] as? [String: Any])?["kind"] as? String == "invalidSource")
        // Exactly one line on standard error per failed source, naming it.
        #expect(result.errorLines.count == 2, "\(result.stderr)")
        #expect(result.errorLines.contains("\(missing): 404 Not Found"))
        #expect(result.errorLines.contains { $0.hasPrefix("\(injected.debugDescription): ") })
        // The server never saw the injected request: only the two well-formed URLs reached it.
        let count = try Data(contentsOf: URL(string: server.url("count"))!)
        #expect(String(decoding: count, as: UTF8.self) == "3")
    }

    @Test func aRepeatedSourceIsLoadedOnceAndServedFromMemory() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let url = server.url("ok.png")
        let result = try await ImagoTool.run(["load", "--json", "--cache-dir", fixtures.path("cache"), url, url])
        #expect(result.status == 0, "\(result.stderr)")
        let caches = try result.jsonLines().compactMap { $0["cache"] as? String }
        #expect(caches.sorted() == ["memory", "network"])
        let count = try Data(contentsOf: URL(string: server.url("count"))!)
        #expect(String(decoding: count, as: UTF8.self) == "2")
    }

    @Test func aSecondRunIsServedFromTheDiskCacheAndNoCacheSkipsIt() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let url = server.url("ok.png")
        let cacheDir = fixtures.path("cache")
        let first = try await ImagoTool.run(["load", "--json", "--cache-dir", cacheDir, url])
        #expect(try first.jsonLines().first?["cache"] as? String == "network")
        let second = try await ImagoTool.run(["load", "--json", "--cache-dir", cacheDir, url])
        #expect(try second.jsonLines().first?["cache"] as? String == "disk")
        #expect(try second.jsonLines().first?["attempts"] as? Int == 0)
        let uncached = try await ImagoTool.run(["load", "--json", "--no-cache", url])
        #expect(try uncached.jsonLines().first?["cache"] as? String == "network")
        let stats = try await ImagoTool.run(["cache", "stats", "--cache-dir", cacheDir])
        #expect(stats.stdout.contains("entries: 1"))
    }

    @Test func writesResultsIntoOutAndTakesFilesAndDataURIs() async throws {
        let fixtures = try Fixtures()
        let png = try fixtures.redOverBluePNG(name: "photo.png", width: 40, height: 20)
        let gif = try fixtures.animation(as: .gif, name: "anim.gif")
        let uri = "data:image/png;base64," + (try Data(contentsOf: URL(fileURLWithPath: png))).base64EncodedString()
        let out = fixtures.path("out")
        let result = try await ImagoTool.run([
            "load", png, gif, uri, "--out", out, "--format", "webp", "--max-size", "10", "--no-cache", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.jsonLines()
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0["ok"] as? Bool == true })
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["anim.webp", "image.webp", "photo.webp"])
        let photo = try fixtures.decode(out + "/photo.webp")
        #expect((photo.width, photo.height) == (10, 5))
        #expect(try fixtures.decode(out + "/anim.webp").frames.count == 3)
    }

    @Test func anEncodedSlashInAURLCannotWriteOutsideOut() async throws {
        let fixtures = try Fixtures()
        // The server serves the name as sent; the URL's last path component decodes to "ok/../../escaped.png".
        let name = "ok%2F..%2F..%2Fescaped.png"
        try Data(contentsOf: URL(fileURLWithPath: try fixtures.redOverBluePNG())).write(
            to: fixtures.folder.appendingPathComponent(name))
        let server = try LoopbackServer(serving: fixtures.folder)
        let outer = fixtures.path("outer")
        let out = outer + "/out"
        try FileManager.default.createDirectory(atPath: out + "/ok", withIntermediateDirectories: true)
        let result = try await ImagoTool.run(["load", "--no-cache", "--out", out, server.url(name)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outer + "/escaped.png"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }
        #expect(written.count == 1)
    }

    @Test func anUnusableDiskCacheIsReportedOnceAndLoadsStillWork() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png")
        try fixtures.redOverBluePNG(name: "b.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let notAFolder = try fixtures.notAnImage()
        let result = try await ImagoTool.run([
            "load", "--json", "--cache-dir", notAFolder, server.url("a.png"), server.url("b.png"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.jsonLines().allSatisfy { $0["ok"] as? Bool == true })
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.errorLines.first?.contains("disk cache") == true, "\(result.stderr)")
    }

    @Test func aSourceNameNearTheFileNameLimitIsWrittenIntoOut() async throws {
        // 240 bytes is a valid name, but the temporary file beside it once added 24 more and failed.
        let fixtures = try Fixtures()
        let name = String(repeating: "a", count: 236) + ".png"
        let path = try fixtures.redOverBluePNG(name: name)
        let out = fixtures.path("out")
        let result = try await ImagoTool.run(["load", "--no-cache", "--out", out, path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == [name])
    }

    @Test func retriesCountAttempts() async throws {
        let fixtures = try Fixtures()
        let server = try LoopbackServer(serving: fixtures.folder)
        let failing = server.url("fail/a.png")
        let result = try await ImagoTool.run(["load", "--json", "--no-cache", "--retries", "1", failing])
        #expect(result.status == 1)
        let line = try #require(try result.jsonLines().first)
        #expect(line["attempts"] as? Int == 2)
        #expect((line["error"] as? [String: Any])?["message"] as? String == "503 Service Unavailable")
        #expect(result.errorLines == ["\(failing): 503 Service Unavailable"])
    }

    @Test func aSlowSourceTimesOut() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let slow = server.url("slow/ok.png")
        let result = try await ImagoTool.run(["load", "--no-cache", "--retries", "0", "--timeout", "0.5", slow])
        #expect(result.status == 1)
        #expect(result.errorLines == ["\(slow): timed out after 0.5 s"])
    }

    @Test func theSummaryCountsLoadedAndFailed() async throws {
        let fixtures = try Fixtures()
        let good = try fixtures.redOverBluePNG()
        let bad = try fixtures.notAnImage()
        let result = try await ImagoTool.run(["load", "--no-cache", good, bad])
        #expect(result.status == 1)
        #expect(result.lines.count == 1)
        #expect(result.stdout.hasPrefix("loaded 1, failed 1"))
        #expect(result.errorLines == ["\(bad): not an image: unknown format"])
    }

    @Test func ctrlCCancelsAndLeavesNothingHalfWritten() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "ok.png")
        let server = try LoopbackServer(serving: fixtures.folder)
        let out = fixtures.path("out")
        let sources = [server.url("ok.png")] + (1...3).map { server.url("slow/ok.png?\($0)") }
        let result = try await ImagoTool.run(
            ["load", "--no-cache", "--out", out, "--concurrency", "4"] + sources, interruptAfter: 2)
        #expect(result.status == 130)
        #expect(result.stderr.contains("interrupted"))
        // The finished load was written whole; the cancelled ones left nothing, not even temporary files.
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(written == ["ok.png"])
        #expect(try fixtures.decode(out + "/ok.png").width == 16)
    }
}
