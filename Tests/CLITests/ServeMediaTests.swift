import Foundation
import Imago
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `imago serve` with the `faces` detector and the `video` codec named in its configuration (issue 38): face
/// gravity and hiding in the three grammars, `/info`'s faces and video facts, `/metrics`' detection counters,
/// video posters and animated previews.
@Suite struct ServeMediaTests {
    static let astronaut = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DetectTests/Fixtures/astronaut.jpg")

    /// A configuration allowing the loopback origin, with `extra` top-level keys.
    /// imgproxy's grammar under `/imgproxy` (unsigned), thumbor's under `/thumbor` (unsafe, images under the origin).
    func config(_ fixtures: Fixtures, origin: LoopbackServer, _ extra: String) throws -> String {
        let path = fixtures.path("serve.json")
        let json = """
            {"dataCache": null, \(extra)
             "serve": {"allowedSources": ["\(origin.url(""))"], "allowPrivateAddresses": true,
                       "dialects": {"imgproxy": {"enabled": true, "pathPrefix": "/imgproxy"},
                                    "thumbor": {"enabled": true, "allowUnsafe": true, "pathPrefix": "/thumbor",
                                                "loaderBase": "\(origin.url(""))"}}}}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func source(_ origin: LoopbackServer, _ name: String) -> String {
        origin.url(name).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// `data` decoded by the standard codecs.
    func decode(_ data: Data) throws -> DecodedImage {
        try PluginRegistry.Builder(.standard()).build().decoder(for: data, limits: .default)
            .decode(data, options: DecodeOptions(frames: .all))
    }

    func json(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    /// The value of the metric line `name` in `/metrics`.
    func metric(_ serve: ServeProcess, _ name: String) throws -> Double {
        let text = String(decoding: try serve.get("/metrics").body, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") })
        return try #require(Double(line.split(separator: " ")[1]))
    }

    @Test func facesThroughEveryGrammarInfoAndMetrics() async throws {
        let fixtures = try Fixtures()
        try FileManager.default.copyItem(at: Self.astronaut, to: URL(fileURLWithPath: fixtures.path("a.jpg")))
        let origin = try LoopbackServer(serving: fixtures.folder)
        let serve = try ServeProcess([
            "--listen", "127.0.0.1:0", "--config", try config(fixtures, origin: origin, #""detectors": ["faces"],"#),
        ])
        let plain = source(origin, "a.jpg")
        // /info lists the faces in the output's pixels: the astronaut's face, in the upper middle of the photo.
        let info = try serve.get("/info/unsafe/w=256/plain/\(plain)")
        #expect(info.status == 200, "\(String(decoding: info.body, as: UTF8.self))")
        let object = try json(info.body)
        let faces = try #require(object["faces"] as? [String: Any])
        #expect(faces["in"] as? String == "output" && faces["width"] as? Int == 256)
        let regions = try #require(faces["regions"] as? [[String: Any]])
        #expect(regions.count == 1)
        let face = try #require(regions.first)
        let (x, y) = (face["x"] as? Int ?? -1, face["y"] as? Int ?? -1)
        let (width, height) = (face["width"] as? Int ?? 0, face["height"] as? Int ?? 0)
        #expect(x > 64 && x + width < 192 && y > 10 && y + height < 128, "\(face)")
        #expect(try metric(serve, "imago_detections_total") == 1)
        // A narrow window placed on the face, in Imago's, imgproxy's and thumbor's grammars: one detection, reused.
        let paths = [
            // (imgproxy's `fill` without `enlarge` is Imago's `fit=cover,adj=clamp`: one key with the next path.)
            "/unsafe/w=64,h=256,fit=cover,adj=clamp,g=face/plain/\(plain)",
            "/imgproxy/insecure/rs:fill:64:256/g:obj:face/plain/\(plain)",
            "/imgproxy/insecure/rs:fill:64:256/g:sm/plain/\(plain)",
            "/thumbor/unsafe/64x256/smart/a.jpg",
            "/unsafe/w=64,h=256,fit=cover,blurfaces=8/plain/\(plain)",
            "/unsafe/pixelatefaces=16/plain/\(plain)",
        ]
        for path in paths {
            let answer = try serve.get(path)
            #expect(answer.status == 200, "\(path): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
        #expect(try metric(serve, "imago_detections_total") == 1)
        // Each render not answered by the result cache reused the answer (g:obj:face is g=face's key, so a hit).
        let hits = try metric(serve, "imago_detection_cache_hits_total")
        #expect(hits >= 4 && hits < Double(paths.count), "\(hits)")
        #expect(try metric(serve, "imago_detection_cpu_seconds_total") > 0)
        // The face's window: its centre column over the face, not the photo's centre.
        let cropped = try decode(try serve.get(paths[0]).body)
        #expect(cropped.width == 64 && cropped.height == 256)
        let centred = try decode(try serve.get("/unsafe/w=64,h=256,fit=cover/plain/\(plain)").body)
        let differing = (0..<256).filter { cropped.raster[32, $0] != centred.raster[32, $0] }
        #expect(differing.count > 64)
    }

    @Test func withoutADetectorFaceGravityIsSmartAndHidingIsRefused() async throws {
        let fixtures = try Fixtures()
        try FileManager.default.copyItem(at: Self.astronaut, to: URL(fileURLWithPath: fixtures.path("a.jpg")))
        let origin = try LoopbackServer(serving: fixtures.folder)
        let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--config", try config(fixtures, origin: origin, "")])
        let plain = source(origin, "a.jpg")
        #expect(try serve.get("/unsafe/w=64,h=256,fit=cover,g=face/plain/\(plain)").status == 200)
        let refused = try serve.get("/unsafe/blurfaces=8/plain/\(plain)")
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("no face detector is configured"))
        let info = try json(try serve.get("/info/unsafe/-/plain/\(plain)").body)
        #expect(info["faces"] == nil)
    }

    @Test func videoPostersPreviewsAndInfo() async throws {
        let fixtures = try Fixtures()
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        make.arguments = [
            "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=4", "-c:v",
            "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", fixtures.path("clip.mp4"),
        ]
        make.standardInput = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        #expect(make.terminationStatus == 0)
        let origin = try LoopbackServer(serving: fixtures.folder)
        let codecs = #""codecs": ["png", "jpeg", "gif", "webp", "video"],"#
        let serve = try ServeProcess([
            "--listen", "127.0.0.1:0", "--config", try config(fixtures, origin: origin, codecs),
        ])
        let clip = source(origin, "clip.mp4")
        // Posters at two times differ (the test pattern moves); a poster is a still JPEG of the asked width.
        let first = try serve.get("/unsafe/w=160,t=0.5/plain/\(clip)")
        let later = try serve.get("/unsafe/w=160,t=3/plain/\(clip)")
        let keyframe = try serve.get("/unsafe/w=160,t=3:k/plain/\(clip)")
        for answer in [first, later, keyframe] { #expect(answer.status == 200) }
        let poster = try decode(first.body)
        #expect(poster.format == .jpeg && poster.width == 160 && poster.height == 120)
        #expect(first.body != later.body)
        // An animated preview: 6 frames at 2 a second, streamed into WebP.
        let preview = try serve.get("/unsafe/w=160,f=webp,frames=6,fps=2/plain/\(clip)")
        #expect(preview.status == 200, "\(String(decoding: preview.body.prefix(300), as: UTF8.self))")
        let frames = try decode(preview.body)
        #expect(frames.format == .webp && frames.frames.count == 6 && frames.width == 160)
        // f=webp without frames or fps is the poster.
        let still = try decode(try serve.get("/unsafe/w=160,f=webp/plain/\(clip)").body)
        #expect(still.frames.count == 1)
        // /info: the video's facts, the same object as imago info --json's.
        let info = try json(try serve.get("/info/unsafe/-/plain/\(clip)").body)
        let video = try #require(info["video"] as? [String: Any])
        #expect(
            video["codec"] as? String == "h264" && video["width"] as? Int == 320 && video["frameCount"] as? Int == 40)
        #expect(video["duration"] as? Double == 4 && video["frameRate"] as? Double == 10)
        let cli = try await ImagoTool.run(["info", "--json", fixtures.path("clip.mp4")])
        let line = try #require(try cli.jsonLines().first)
        #expect(
            NSDictionary(dictionary: try #require(line["video"] as? [String: Any])) == NSDictionary(dictionary: video))
    }
}
