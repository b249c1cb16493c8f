import Foundation
import Imago
import Synchronization

@testable import ImagoServer

/// A running `ImageServer` on 127.0.0.1 port 0 with a loopback origin serving test images, and the access log
/// it wrote. Loopback origins need `allowPrivateAddresses` and an explicit `allowedSources`.
final class ServerFixture: Sendable {
    let folder: URL
    let origin: OriginServer
    let server: ImageServer
    private let entries = LogBox()

    /// Starts an origin and a server; `adjust` changes the settings first (the origin is allowed already).
    init(
        retries: Int = 1, imageCache: Bool = true, adjust: (inout ServeSettings, OriginServer) -> Void = { _, _ in }
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imago-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.writeImages(to: folder)
        origin = try OriginServer(serving: folder)
        var settings = ServeSettings()
        settings.listen = "127.0.0.1:0"
        settings.allowPrivateAddresses = true
        settings.allowedSources = [origin.prefix]
        adjust(&settings, origin)
        var configuration = PluginRegistry.standardFactories().standardConfiguration()
        configuration.dataCache = nil
        if !imageCache { configuration.imageCache = nil }
        configuration.loader.retry = RetryPolicy(maxAttempts: retries, initialDelay: 0.01)
        let entries = self.entries
        server = try ImageServer(configuration: configuration, settings: settings) { entry in
            entries.lines.withLock { $0.append(entry) }
        }
    }

    deinit {
        server.stop()
        origin.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var port: Int { server.port }

    /// The access-log entries so far.
    var log: [AccessLogEntry] { entries.lines.withLock { $0 } }

    /// `/unsafe/OPTIONS/plain/SOURCE` (percent-encoded) for a path on the origin.
    func path(_ options: String = "-", origin path: String) -> String {
        "/unsafe/\(options)/plain/" + Self.encode(origin.url(path))
    }

    /// GET (or HEAD) `target` on the server.
    func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> RawResponse {
        let port = self.port
        return try await RawHTTP.offPool {
            try RawHTTP.get(port: port, target: target, method: method, headers: headers)
        }
    }

    /// The blocking form, for threads of their own (`RawHTTP.concurrently`).
    func getBlocking(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        try RawHTTP.get(port: port, target: target, headers: headers)
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))!
    }

    /// photo.jpg (200×100, two halves), logo.png (64×48 with alpha), anim.gif (3 frames 8×6), big.png (300×300).
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

private final class LogBox: Sendable {
    let lines = Mutex<[AccessLogEntry]>([])
}
