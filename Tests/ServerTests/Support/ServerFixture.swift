import Foundation
import Imago
import ImagoTestSupport

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

/// `imago serve` on 127.0.0.1 port 0 (the built executable, as a child process, so the server never shares a
/// cooperative pool with the tests), a loopback origin serving test images, and the access log it wrote.
/// Loopback origins need `allowPrivateAddresses` and an explicit `allowedSources`.
final class ServerFixture: Sendable {
    let folder: URL
    let origin: OriginServer
    let process: ServeChild

    /// Starts an origin and a server; `adjust` changes the settings first (the origin is allowed already; the
    /// third argument is the folder of the images, for `file:` prefixes).
    init(
        retries: Int = 1, imageCache: Bool = true,
        adjust: (inout ServeSettings, OriginServer, URL) -> Void = { _, _, _ in },
        configure: (inout ImagoConfiguration) -> Void = { _ in }
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.writeImages(to: folder)
        origin = try OriginServer(serving: folder)
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.allowPrivateAddresses = true
        settings.allowedSources = [origin.prefix]
        adjust(&settings, origin, folder)
        var configuration = PluginRegistry.standardFactories().standardConfiguration()
        configuration.dataCache = nil
        if !imageCache { configuration.imageCache = nil }
        configuration.loader.retry = RetryPolicy(maxAttempts: retries, initialDelay: 0.01)
        configuration.sections[ServeSettings.sectionName] = settings.json
        configure(&configuration)
        let file = folder.appendingPathComponent("serve.json")
        try Data(configuration.json.jsonText().utf8).write(to: file)
        process = try ServeChild(arguments: ["serve", "--config", file.path], folder: folder)
    }

    deinit {
        process.kill()
        origin.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var port: Int { process.port }

    /// The access-log lines so far.
    var log: [LoggedRequest] { process.logLines.compactMap(LoggedRequest.init) }

    /// `/unsafe/OPTIONS/plain/SOURCE` (percent-encoded) for a path on the origin.
    func path(_ options: String = "-", origin path: String) -> String {
        "/unsafe/\(options)/plain/" + Self.encode(origin.url(path))
    }

    /// GET (or HEAD) `target` on the server.
    func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> RawResponse {
        let port = self.port
        return try await offPool {
            try RawHTTP.get(port: port, target: target, method: method, headers: headers)
        }
    }

    /// The blocking form, for threads of their own (`RawHTTP.concurrently`).
    func getBlocking(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        try RawHTTP.get(port: port, target: target, headers: headers)
    }

    /// An answer's body read by the standard decoders.
    static func decode(_ body: Data) throws -> DecodedImage {
        try PluginRegistry.standard().decoder(for: body, limits: .default).decode(body)
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
    }

    /// photo.jpg (200×100), logo.png (64×48 with alpha), big.png (300×300), anim.gif (3 frames 8×6), notes.png (text),
    /// wm.png (10×10 red), fallback.png (40×30 green), border.png (a black block in white), salient.png (a red
    /// disc on grey at the right).
    static func writeImages(to folder: URL) throws {
        let registry = PluginRegistry.standard()
        func write(_ image: DecodedImage, _ format: ImageFormat, _ name: String, options: EncodeOptions = .default)
            throws
        {
            let data = try registry.encoder(for: format)!.encode(image, options: options)
            try data.write(to: folder.appendingPathComponent(name))
        }
        try write(
            DecodedImage(raster: try gradient(width: 200, height: 100, alpha: 255), format: .jpeg), .jpeg, "photo.jpg")
        try write(DecodedImage(raster: try gradient(width: 64, height: 48, alpha: 128), format: .png), .png, "logo.png")
        try write(
            DecodedImage(raster: try gradient(width: 300, height: 300, alpha: 255), format: .png), .png, "big.png")
        let frames = try [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)].map {
            ImageFrame(raster: try Raster(width: 8, height: 6, fill: $0), duration: 0.1)
        }
        try write(
            DecodedImage(frames: frames, loopCount: 0, format: .gif, hasAlpha: false), .gif, "anim.gif",
            options: EncodeOptions(lossless: true, allFrames: true))
        // A 10×10 opaque red watermark and a 40×30 green fallback image (issue 24).
        try write(
            DecodedImage(raster: try Raster(width: 10, height: 10, fill: RGBA(255, 0, 0)), format: .png), .png, "wm.png"
        )
        try write(
            DecodedImage(raster: try Raster(width: 40, height: 30, fill: RGBA(0, 255, 0)), format: .png), .png,
            "fallback.png")
        // border.png: 40×30 white around a 10×8 black block at (12, 9); salient.png: 300×100 grey, a red disc at x 250.
        var borderPixels = [UInt8](repeating: 255, count: 40 * 30 * 4)
        for y in 9..<17 { for x in 12..<22 { for c in 0..<3 { borderPixels[(y * 40 + x) * 4 + c] = 0 } } }
        var salientPixels = [UInt8](repeating: 128, count: 300 * 100 * 4)
        for y in 0..<100 {
            for x in 0..<300 {
                salientPixels[(y * 300 + x) * 4 + 3] = 255
                guard (x - 250) * (x - 250) + (y - 50) * (y - 50) < 900 else { continue }
                salientPixels[(y * 300 + x) * 4] = 255
                salientPixels[(y * 300 + x) * 4 + 1] = (x / 4) % 2 == 0 ? 0 : 60
                salientPixels[(y * 300 + x) * 4 + 2] = 0
            }
        }
        let border = try Raster(width: 40, height: 30, pixels: borderPixels)
        let salient = try Raster(width: 300, height: 100, pixels: salientPixels)
        try write(DecodedImage(raster: border, format: .png), .png, "border.png")
        try write(DecodedImage(raster: salient, format: .png), .png, "salient.png")
        try Data("not an image at all, just text".utf8).write(to: folder.appendingPathComponent("notes.png"))
    }

    static func gradient(width: Int, height: Int, alpha: UInt8) throws -> Raster {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 128, alpha]
            }
        }
        return try Raster(width: width, height: height, pixels: pixels)
    }
}

/// One access-log line, parsed.
struct LoggedRequest: Sendable {
    var line: String
    var time: Date
    var method: String
    var path: String
    var status: Int
    var bytes: Int
    var milliseconds: Double
    var cache: String

    init?(_ line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let time = (object["time"] as? String).flatMap(Self.parseTime), let method = object["method"] as? String,
            let path = object["path"] as? String, let status = object["status"] as? Int,
            let bytes = object["bytes"] as? Int, let ms = object["ms"] as? Double,
            let cache = object["cache"] as? String
        else { return nil }
        (self.line, self.time, self.method, self.path, self.status) = (line, time, method, path, status)
        (self.bytes, self.milliseconds, self.cache) = (bytes, ms, cache)
    }

    static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

/// The `imago` executable run as a child process, its stdout (the access log) and stderr in files.
final class ServeChild: @unchecked Sendable {  // `Process` is not Sendable; it is only killed once, under `lock`
    private let process = Process()
    private let outURL: URL
    private let errURL: URL
    private let lock = NSLock()
    let port: Int

    init(arguments: [String], folder: URL) throws {
        outURL = folder.appendingPathComponent("serve.out")
        errURL = folder.appendingPathComponent("serve.err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var found = 0
        while Date() < deadline {
            let text = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }) {
                found = Int(line.split(separator: ":").last ?? "") ?? 0
                break
            }
            if !process.isRunning { break }
            usleep(10_000)
        }
        port = found
        guard found > 0 else {
            let text = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            kill()
            throw RawHTTPError(description: "imago serve did not start: \(text)")
        }
    }

    /// The lines of standard output so far.
    var logLines: [String] {
        ((try? String(contentsOf: outURL, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Sends SIGTERM and waits for the exit: the seconds it took, or `nil` past `timeout`.
    func terminate(timeout: Double) -> Double? {
        let start = Date()
        lock.lock()
        defer { lock.unlock() }
        _ = Glibc.kill(process.processIdentifier, SIGTERM)
        while process.isRunning && Date().timeIntervalSince(start) < timeout { usleep(10_000) }
        return process.isRunning ? nil : Date().timeIntervalSince(start)
    }

    /// The CPU time the server has used so far, in seconds (user and system, from /proc).
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func kill() {
        lock.lock()
        defer { lock.unlock() }
        if process.isRunning {
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The built `imago` next to the test bundle (`swift build --build-tests` builds it).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("imago"))
        }
        if let runner = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(runner.deletingLastPathComponent().appendingPathComponent("imago"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/imago"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw RawHTTPError(description: "the imago executable is not built: run `swift build --build-tests`")
        }
        return found
    }
}
