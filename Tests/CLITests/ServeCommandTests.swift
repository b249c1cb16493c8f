import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `imago serve` as a process: the ready line, the access log, draining on SIGTERM/SIGINT, exit statuses.
@Suite struct ServeCommandTests {
    /// A configuration file allowing the loopback origin, with `serve` keys added.
    func config(_ fixtures: Fixtures, origin: LoopbackServer, _ extra: String = "") throws -> String {
        let path = fixtures.path("serve.json")
        let prefix = origin.url("")
        let json = """
            {"dataCache": null, "serve": {"allowedSources": ["\(prefix)"], "allowPrivateAddresses": true\(extra)}}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func imagePath(_ origin: LoopbackServer, _ name: String, options: String = "w=8") -> String {
        let source = origin.url(name).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return "/unsafe/\(options)/plain/\(source)"
    }

    @Test func printsTheReadyLineAndOneAccessLogLinePerRequest() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png", width: 32, height: 16)
        let origin = try LoopbackServer(serving: fixtures.folder)
        let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--config", try config(fixtures, origin: origin)])
        #expect(serve.readyLine == "imago serve: listening on http://127.0.0.1:\(serve.port)")
        #expect(serve.port > 0)
        let image = try serve.get(imagePath(origin, "a.png"))
        #expect(image.status == 200)
        #expect(try serve.get("/health").status == 200)
        #expect(try serve.get("/unsafe/nope").status == 400)
        serve.send(SIGTERM)
        #expect(serve.waitForExit(timeout: 20) == 0)
        let lines = serve.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let entries = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.map { $0?["status"] as? Int } == [200, 200, 400])
        #expect(entries.map { $0?["cache"] as? String } == ["network", "none", "none"])
        #expect(entries[0]?["bytes"] as? Int == image.body.count)
        #expect(entries[0]?["path"] as? String == imagePath(origin, "a.png"))
        for entry in entries {
            #expect(Set(entry?.keys.map { $0 } ?? []) == ["time", "method", "path", "status", "bytes", "ms", "cache"])
        }
    }

    @Test func quietWritesNoAccessLog() async throws {
        let fixtures = try Fixtures()
        let origin = try LoopbackServer(serving: fixtures.folder)
        let serve = try ServeProcess([
            "--listen", "127.0.0.1:0", "--quiet", "--config", config(fixtures, origin: origin),
        ])
        #expect(try serve.get("/health").status == 200)
        serve.send(SIGINT)
        #expect(serve.waitForExit(timeout: 20) == 0)
        #expect(serve.stdout.isEmpty)
    }

    @Test func sigtermLetsRequestsInFlightFinishThenExits0() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png", width: 32, height: 16)
        let origin = try LoopbackServer(serving: fixtures.folder)  // /slow/NAME answers after 3 s
        let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--config", config(fixtures, origin: origin)])
        let path = imagePath(origin, "slow/a.png")
        let port = serve.port
        let request = BackgroundGet(port: port, path: path)
        usleep(800_000)
        let signalled = Date()
        serve.send(SIGTERM)
        usleep(300_000)
        #expect(!HTTPGet.accepts(port: port), "still accepting after SIGTERM")
        #expect(request.status() == 200)
        #expect(serve.waitForExit(timeout: 20) == 0)
        #expect(Date().timeIntervalSince(signalled) < 9)
        #expect(serve.stdout.contains("\"status\":200"))
    }

    @Test func requestsOverTheGraceAreAnswered503AndTheExitIsStill0() async throws {
        let fixtures = try Fixtures()
        try fixtures.redOverBluePNG(name: "a.png")
        let origin = try LoopbackServer(serving: fixtures.folder)
        let file = try config(fixtures, origin: origin, #", "shutdownGrace": 0.5"#)
        let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--config", file])
        let path = imagePath(origin, "slow/a.png")
        let port = serve.port
        let request = BackgroundGet(port: port, path: path)
        usleep(500_000)
        serve.send(SIGTERM)
        #expect(request.status() == 503)
        #expect(serve.waitForExit(timeout: 10) == 0)
    }

    @Test func aBadConfigurationExits1NamingTheKey() async throws {
        let fixtures = try Fixtures()
        let file = fixtures.path("bad.json")
        try Data(#"{"serve": {"maxSourceBytes": "lots"}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let result = try await ImagoTool.run(["serve", "--config", file, "--listen", "127.0.0.1:0"], timeout: 30)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("serve.maxSourceBytes"))
    }

    /// The watermark and the fallback image are loaded and checked at the start, not at each request (issue 33).
    @Test func aWatermarkOrFallbackThatCannotBeLoadedExits1NamingTheKey() async throws {
        let fixtures = try Fixtures()
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: fixtures.path("note.txt")))
        for (key, value) in [("watermark", fixtures.path("note.txt")), ("fallbackImage", fixtures.path("none.png"))] {
            let file = fixtures.path("\(key).json")
            let json = #"{"dataCache": null, "serve": {"\#(key)": "\#(value)"}}"#
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            let result = try await ImagoTool.run(["serve", "--config", file, "--listen", "127.0.0.1:0"], timeout: 60)
            #expect(result.status == 1, "\(key): \(result.stderr)")
            #expect(result.stderr.contains("serve.\(key)"), "\(result.stderr)")
            #expect(!result.stderr.contains("listening on"), "\(result.stderr)")
        }
    }

    /// A malformed `--listen` is a bad flag value: exit 2 with the usage, as the CLI contract says (a bare port too:
    /// loopback or every interface would be a guess).
    @Test func aMalformedListenExits2WithTheUsage() async throws {
        for value in ["8099", "localhost", "127.0.0.1:99999", "127.0.0.1:http"] {
            let result = try await ImagoTool.run(["serve", "--listen", value], timeout: 30)
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.errorLines.first?.hasPrefix("imago serve: --listen: \"\(value)\" is not HOST:PORT") == true)
            #expect(result.stderr.contains("usage: imago serve"), "\(value): \(result.stderr)")
        }
        // A name with a good port: the host is what is wrong, and the message says so (it said "not HOST:PORT").
        for value in ["example.com:80", "example.invalid:18099"] {
            let result = try await ImagoTool.run(["serve", "--listen", value], timeout: 30)
            let host = value.split(separator: ":")[0]
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(
                result.errorLines.first?.hasPrefix("imago serve: --listen: \"\(host)\" is not a numeric address")
                    == true, "\(result.stderr)")
            #expect(result.stderr.contains("names are not resolved") && !result.stderr.contains("is not HOST:PORT"))
        }
        let bare = try await ImagoTool.run(["serve", "--listen", "8099"], timeout: 30)
        #expect(bare.stderr.contains("(for example 127.0.0.1:8099)"), "\(bare.stderr)")
        // In a configuration file, the same value is a configuration error naming the key.
        let fixtures = try Fixtures()
        let file = fixtures.path("listen.json")
        try Data(#"{"serve": {"listen": "8099"}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let configured = try await ImagoTool.run(["serve", "--config", file], timeout: 30)
        #expect(configured.status == 1 && configured.stderr.contains("serve.listen"), "\(configured.stderr)")
        #expect(!configured.stderr.contains("usage:"))
    }

    @Test func aPortInUseExits1() async throws {
        let fixtures = try Fixtures()
        let origin = try LoopbackServer(serving: fixtures.folder)
        let first = try ServeProcess(["--listen", "127.0.0.1:0", "--config", config(fixtures, origin: origin)])
        let second = try await ImagoTool.run(["serve", "--listen", "127.0.0.1:\(first.port)"], timeout: 30)
        #expect(second.status == 1)
        #expect(second.errorLines.count == 1)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(first.port)"))
        // The reason names the port tried (libmicrohttpd's message once said "port 0").
        #expect(second.stderr.contains("port \(first.port)"), "\(second.stderr)")
        #expect(!second.stderr.contains("port 0"), "\(second.stderr)")
        first.send(SIGTERM)
        #expect(first.waitForExit(timeout: 20) == 0)
    }

    @Test func theDefaultConfigurationHasEveryServeKey() async throws {
        let result = try await ImagoTool.run(["config", "--print-default"])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let serve = try #require(json?["serve"] as? [String: Any])
        #expect(
            Set(serve.keys) == [
                "listen", "signingKeys", "allowedSources", "allowPrivateAddresses", "maxSourceBytes", "maxSourcePixels",
                "maxOutputSide", "sourceTimeout", "requestTimeout", "maxConcurrentRequests", "maxQueuedRequests",
                "cacheMaxAge",
                "resultCacheBytes", "autoFormats", "shutdownGrace", "watermark", "onlyPresets", "quality",
                "fallbackImage", "fallbackStatus", "fallbackMaxAge", "dialects", "resultStore",
                "fleet", "autoQuality", "bestFormats",
            ])
        #expect(serve["resultStore"] is NSNull)
        #expect(
            serve["fleet"] as? NSDictionary == [
                "redis": NSNull(), "keyPrefix": "imago:lease:", "leaseMilliseconds": 5000, "timeout": 0.25,
                "retryInterval": 2,
            ])
        #expect(serve["watermark"] is NSNull && serve["fallbackImage"] is NSNull)
        #expect(serve["onlyPresets"] as? Bool == false && serve["fallbackStatus"] as? Int == 200)
        #expect(serve["fallbackMaxAge"] as? Int == 60)
        #expect(
            serve["quality"] as? [String: Int] == ["jpeg": 85, "webp": 80, "avif": 60, "jxl": 80, "heic": 60])
        #expect(serve["listen"] as? String == "127.0.0.1:8080")
        #expect(serve["autoFormats"] as? [String] == ["avif", "webp", "jpeg"])
        // The printed configuration is read back by `serve` and by `load`.
        let fixtures = try Fixtures()
        let file = fixtures.path("default.json")
        try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let image = try fixtures.redOverBluePNG()
        let load = try await ImagoTool.run(["load", "--config", file, "--no-cache", image])
        #expect(load.status == 0, "\(load.stderr)")
        let serveProcess = try ServeProcess(["--listen", "127.0.0.1:0", "--config", file, "--quiet"])
        #expect(try serveProcess.get("/health").status == 200)
    }
}

/// One GET sent on a thread of its own, so the test can signal the server while the request is in flight.
private final class BackgroundGet: Sendable {
    private let result = Mutex<(Int, Data)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, path: String) {
        Thread.detachNewThread { [self] in
            result.withLock { $0 = try? HTTPGet.get(port: port, path: path) }
            done.signal()
        }
    }

    /// The answer's status, once it came (nil when the request failed).
    func status() -> Int? {
        done.wait()
        done.signal()
        return result.withLock { $0?.0 }
    }
}
