import Foundation
import Imago

/// The `serve` section of a configuration: how `imago serve` (or an embedded `ImageServer`) listens, what it
/// accepts and how much it keeps. Every key is optional; unknown keys are errors naming their path.
public struct ServeSettings: Sendable, Hashable {
    /// The section's key in a configuration file.
    public static let sectionName = "serve"

    /// Address and port, `HOST:PORT` (`[::1]:8080` for IPv6); port 0 picks a free one.
    public var listen: String = "127.0.0.1:8080"
    /// Secrets; empty: the signature segment must be `unsafe`, else an HMAC-SHA256 by any one of them.
    public var signingKeys: [String] = []
    /// URL prefixes a source must start with (`*` matches one host label); empty: any http(s) URL.
    public var allowedSources: [String] = []
    /// Whether sources may be (or resolve to) loopback, private, link-local, unique-local, unspecified or multicast
    /// addresses.
    public var allowPrivateAddresses = false
    /// Largest source in bytes (413 beyond).
    public var maxSourceBytes = 52_428_800
    /// Largest source in pixels, checked from the header before decoding (422 beyond).
    public var maxSourcePixels = 50_000_000
    /// Largest `w` or `h` after `dpr` (400 beyond).
    public var maxOutputSide = 8192
    /// Seconds a source fetch may take (504 beyond).
    public var sourceTimeout: Double = 10
    /// Seconds a whole request may take from its request line: the wait for a slot, for the fleet, the fetch, the
    /// render and the encode (503 when it runs out while the request still waits, 504 after its work began).
    public var requestTimeout: Double = 30
    /// Requests processed at once.
    public var maxConcurrentRequests = ProcessInfo.processInfo.activeProcessorCount * 2
    /// Requests waiting for a processing slot; beyond this: 503 with `Retry-After`.
    public var maxQueuedRequests = 256
    /// `Cache-Control: public, max-age=N` on 200s.
    public var cacheMaxAge = 31_536_000
    /// Bytes of finished responses kept in memory (0: no result cache).
    public var resultCacheBytes = 67_108_864
    /// The order `f=auto` prefers, among the formats the client's `Accept` names (AVIF first, now that the
    /// umbrella registers an AVIF encoder).
    public var autoFormats: [ImageFormat] = [ImageFormat("avif"), .webp, .jpeg]
    /// Seconds requests in flight may take to finish after SIGTERM.
    public var shutdownGrace: Double = 10
    /// The image `wm` draws: a source URL or a file path; nil: `wm` is a 400.
    public var watermark: String?
    /// Whether only `pr=` is accepted in URLs (imgproxy's only-presets mode).
    public var onlyPresets = false
    /// The quality of each lossy format when the URL has no `q`.
    public var quality: [String: Int] = ServeSettings.defaultQuality
    /// `q=auto`'s target and bounds where the URL leaves them out, and `f=best`'s without `q`
    /// (`serve.autoQuality.target`, `.min`, `.max`).
    public var autoQuality = AutoQuality()
    /// The formats `f=best` tries, in order, among those the client's `Accept` names (JPEG and PNG need not be
    /// named: JPEG is tried for opaque images, PNG for images with alpha).
    public var bestFormats: [ImageFormat] = BestFormat.preferredOrder
    /// A source served, processed with the request's options, when the source fails with 404, 415, 502 or 504;
    /// nil: the failure is answered.
    public var fallbackImage: String?
    /// The status the fallback image is served with.
    public var fallbackStatus = 200
    /// `Cache-Control: max-age` of a fallback image, in seconds.
    public var fallbackMaxAge = 60
    /// Where finished responses are shared by the processes of a fleet: a data cache spec (`"disk"`,
    /// `{"name": "redis", "settings": {…}}`, `s3`, `tiered`, a user's own); nil: only `resultCacheBytes` in memory.
    public var resultStore: JSONValue?
    /// The leases that let one process of a fleet render a variant or fetch a source while the others wait.
    public var fleet = FleetSettings()
    /// imgproxy's and thumbor's URL grammars and where each is served (`dialects`).
    public var dialects = DialectSettings()

    /// `quality`'s defaults.
    public static let defaultQuality = ["jpeg": 85, "webp": 80, "avif": 60, "jxl": 80, "heic": 60]

    /// The defaults.
    public init() {}

    /// Reads the section (`null` or absent: the defaults); errors name the key's path (`serve.maxSourceBytes`).
    public init(json value: JSONValue?, path: String = ServeSettings.sectionName) throws {
        self.init()
        let reader = try ConfigReader(value ?? .null, path: path)
        listen = try reader.string("listen") ?? listen
        _ = try ListenAddress(parsing: listen, path: reader.path(of: "listen"))
        signingKeys = try Self.strings(reader, "signingKeys") ?? signingKeys
        if signingKeys.contains(where: \.isEmpty) {
            throw ConfigReader.error(reader.path(of: "signingKeys"), "a key is empty")
        }
        allowedSources = try Self.strings(reader, "allowedSources") ?? allowedSources
        for (index, prefix) in allowedSources.enumerated() where SourcePattern(prefix) == nil {
            throw ConfigReader.error(
                "\(reader.path(of: "allowedSources"))[\(index)]",
                "\"\(prefix)\" is not a URL prefix (scheme://host…, `*` only as a whole host label)")
        }
        allowPrivateAddresses = try reader.bool("allowPrivateAddresses", default: allowPrivateAddresses)
        maxSourceBytes = try reader.int("maxSourceBytes", default: maxSourceBytes, in: 1...Int(Int32.max) * 8)
        maxSourcePixels = try reader.int("maxSourcePixels", default: maxSourcePixels, in: 1...1_000_000_000)
        maxOutputSide = try reader.int("maxOutputSide", default: maxOutputSide, in: 1...65_535)
        sourceTimeout = try reader.double("sourceTimeout", default: sourceTimeout, in: 0.001...3600)
        requestTimeout = try reader.double("requestTimeout", default: requestTimeout, in: 0.001...3600)
        maxConcurrentRequests = try reader.int(
            "maxConcurrentRequests", default: maxConcurrentRequests, in: 1...4096)
        maxQueuedRequests = try reader.int("maxQueuedRequests", default: maxQueuedRequests, in: 0...1_000_000)
        cacheMaxAge = try reader.int("cacheMaxAge", default: cacheMaxAge, in: 0...Int(Int32.max))
        resultCacheBytes = try reader.int("resultCacheBytes", default: resultCacheBytes, in: 0...(1 << 40))
        if let formats = try Self.strings(reader, "autoFormats") {
            for (index, name) in formats.enumerated() where OutputFormat(name) == nil || name == "auto" {
                throw ConfigReader.error(
                    "\(reader.path(of: "autoFormats"))[\(index)]",
                    "\"\(name)\" is not one of \(OutputFormat.names.joined(separator: ", "))")
            }
            autoFormats = formats.map { ImageFormat($0) }
        }
        shutdownGrace = try reader.double("shutdownGrace", default: shutdownGrace, in: 0...3600)
        try readProcessingKeys(reader)
        try readQualityKeys(reader)
        try readFleetKeys(reader)
        dialects = try DialectSettings(json: reader.value("dialects"), path: reader.path(of: "dialects"))
        try reader.finish()
    }

    /// The section of `configuration` (the defaults when it has none).
    public init(configuration: ImagoConfiguration) throws {
        try self.init(json: configuration.sections[Self.sectionName])
    }

    /// The JSON form, which `init(json:)` reads back to equal settings.
    public var json: JSONValue {
        var keys: [String: JSONValue] = [
            "listen": .string(listen),
            "signingKeys": .array(signingKeys.map { .string($0) }),
            "allowedSources": .array(allowedSources.map { .string($0) }),
            "allowPrivateAddresses": .bool(allowPrivateAddresses),
            "maxSourceBytes": .number(Double(maxSourceBytes)),
            "maxSourcePixels": .number(Double(maxSourcePixels)),
            "maxOutputSide": .number(Double(maxOutputSide)),
            "sourceTimeout": .number(sourceTimeout),
            "requestTimeout": .number(requestTimeout),
            "maxConcurrentRequests": .number(Double(maxConcurrentRequests)),
            "maxQueuedRequests": .number(Double(maxQueuedRequests)),
            "cacheMaxAge": .number(Double(cacheMaxAge)),
            "resultCacheBytes": .number(Double(resultCacheBytes)),
            "autoFormats": .array(autoFormats.map { .string($0.rawValue) }),
            "shutdownGrace": .number(shutdownGrace),
            "watermark": watermark.map(JSONValue.string) ?? .null,
            "onlyPresets": .bool(onlyPresets),
            "quality": .object(quality.mapValues { .number(Double($0)) }),
            "fallbackImage": fallbackImage.map(JSONValue.string) ?? .null,
            "fallbackStatus": .number(Double(fallbackStatus)),
            "fallbackMaxAge": .number(Double(fallbackMaxAge)),
            "dialects": dialects.json,
        ]
        keys.merge(fleetJSON) { _, fleet in fleet }
        keys.merge(qualityJSON) { _, quality in quality }
        return .object(keys)
    }

    static func strings(_ reader: ConfigReader, _ key: String) throws -> [String]? {
        guard let items = try reader.array(key) else { return nil }
        return try items.enumerated().map { index, item in
            guard case .string(let text) = item else {
                throw ConfigReader.error("\(reader.path(of: key))[\(index)]", "expected a string, found \(item)")
            }
            return text
        }
    }
}

extension ImagoConfiguration {
    /// This configuration with a `serve` section (the defaults when it has none), so files may hold one.
    public func withServeSection() -> ImagoConfiguration {
        var copy = self
        if copy.sections[ServeSettings.sectionName] == nil {
            copy.sections[ServeSettings.sectionName] = ServeSettings().json
        }
        return copy
    }
}
