import Imago

/// `serve.dialects`: the foreign URL grammars (issue 26) and where each is served. Exactly one grammar serves the
/// root (Imago's own unless `imagoPathPrefix` moves it); the others live under their `pathPrefix`, which is not
/// part of the signed path.
public struct DialectSettings: Sendable, Hashable {
    /// Where Imago's own grammar is served: `""` (the root, the default) or a prefix such as `/imago`.
    public var imagoPathPrefix = ""
    /// imgproxy's grammar.
    public var imgproxy = ImgproxySettings()
    /// thumbor's grammar.
    public var thumbor = ThumborSettings()

    /// The defaults: no dialect enabled.
    public init() {}

    /// Reads `serve.dialects`; a bad key, a bad hex key or salt, or two grammars on one prefix throws naming it.
    init(json value: JSONValue?, path: String) throws {
        let reader = try ConfigReader(value ?? .null, path: path)
        imagoPathPrefix = try Self.prefix(reader, "imagoPathPrefix", default: imagoPathPrefix)
        imgproxy = try ImgproxySettings(reader.object("imgproxy"))
        thumbor = try ThumborSettings(reader.object("thumbor"))
        try reader.finish()
        var seen: [String: String] = [imagoPathPrefix: "imagoPathPrefix"]
        for (name, enabled, prefix) in [
            ("imgproxy", imgproxy.enabled, imgproxy.pathPrefix), ("thumbor", thumbor.enabled, thumbor.pathPrefix),
        ] where enabled {
            if let other = seen[prefix] {
                throw ConfigReader.error(
                    "\(path).\(name).pathPrefix",
                    "\"\(prefix)\" is already the prefix of \(other): each grammar needs its own (\"\" is the root)")
            }
            seen[prefix] = name
        }
    }

    /// The JSON form, which `init(json:path:)` reads back.
    var json: JSONValue {
        .object(["imagoPathPrefix": .string(imagoPathPrefix), "imgproxy": imgproxy.json, "thumbor": thumbor.json])
    }

    /// `""` or `/name…` without a trailing slash, a `?` or a `%`.
    static func prefix(_ reader: ConfigReader, _ key: String, default value: String) throws -> String {
        guard let prefix = try reader.string(key) else { return value }
        guard prefix.isEmpty || (prefix.hasPrefix("/") && prefix.count > 1 && !prefix.hasSuffix("/")),
            !prefix.contains(where: { "?#% ".contains($0) }) && !prefix.contains("//")
        else { throw ConfigReader.error(reader.path(of: key), "expected \"\" (the root) or /NAME without a final /") }
        return prefix
    }
}

/// `serve.dialects.imgproxy`: imgproxy's URLs and its signing (`IMGPROXY_KEY`, `IMGPROXY_SALT`,
/// `IMGPROXY_SIGNATURE_SIZE`).
public struct ImgproxySettings: Sendable, Hashable {
    /// Whether the grammar is served.
    public var enabled = false
    /// Keys, in hex, for rotation (paired with `salts` by position); empty: the signature is not checked.
    public var keys: [String] = []
    /// Salts, in hex, one per key.
    public var salts: [String] = []
    /// Bytes of the HMAC the signature keeps (1…32).
    public var signatureSize = 32
    /// Where it is served (`""`: the root).
    public var pathPrefix = "/ip"

    /// The defaults: off, under `/ip`.
    public init() {}

    init(_ reader: ConfigReader) throws {
        enabled = try reader.bool("enabled", default: enabled)
        keys = try ServeSettings.strings(reader, "keys") ?? keys
        salts = try ServeSettings.strings(reader, "salts") ?? salts
        for (key, values) in [("keys", keys), ("salts", salts)] {
            for (index, value) in values.enumerated() where Hex.bytes(value) == nil || value.isEmpty {
                throw ConfigReader.error("\(reader.path(of: key))[\(index)]", "expected hex digits, an even number")
            }
        }
        if keys.count != salts.count {
            throw ConfigReader.error(
                reader.path(of: "salts"), "\(salts.count) salts for \(keys.count) keys: give one salt per key")
        }
        signatureSize = try reader.int("signatureSize", default: signatureSize, in: 1...32)
        pathPrefix = try DialectSettings.prefix(reader, "pathPrefix", default: pathPrefix)
        try reader.finish()
    }

    var json: JSONValue {
        .object([
            "enabled": .bool(enabled), "keys": .array(keys.map { .string($0) }),
            "salts": .array(salts.map { .string($0) }), "signatureSize": .number(Double(signatureSize)),
            "pathPrefix": .string(pathPrefix),
        ])
    }
}

/// `serve.dialects.thumbor`: thumbor's URLs, its signing (`SECURITY_KEY`, `ALLOW_UNSAFE_URL`) and where its
/// relative image paths are loaded from (what its `http_loader` or `file_loader` root was).
public struct ThumborSettings: Sendable, Hashable {
    /// Whether the grammar is served.
    public var enabled = false
    /// The HMAC-SHA1 key of signed URLs; nil: only `unsafe/` URLs (if allowed).
    public var securityKey: String?
    /// Whether `/unsafe/…` URLs are served.
    public var allowUnsafe = false
    /// What a relative image path is appended to (`https://images.example.com/`, `file:///srv/images/`); nil:
    /// images must be full `http(s)://` URLs.
    public var loaderBase: String?
    /// Where it is served (`""`: the root).
    public var pathPrefix = "/tb"

    /// The defaults: off, under `/tb`.
    public init() {}

    init(_ reader: ConfigReader) throws {
        enabled = try reader.bool("enabled", default: enabled)
        securityKey = try reader.string("securityKey")
        if securityKey?.isEmpty == true { throw ConfigReader.error(reader.path(of: "securityKey"), "empty key") }
        allowUnsafe = try reader.bool("allowUnsafe", default: allowUnsafe)
        loaderBase = try reader.string("loaderBase")
        if let base = loaderBase, SourcePattern(base) == nil || !base.hasSuffix("/") {
            throw ConfigReader.error(
                reader.path(of: "loaderBase"), "\"\(base)\" is not a URL prefix ending in / (scheme://host/…/)")
        }
        pathPrefix = try DialectSettings.prefix(reader, "pathPrefix", default: pathPrefix)
        try reader.finish()
        if enabled, securityKey == nil, !allowUnsafe {
            throw ConfigReader.error(reader.path, "enabled without securityKey or allowUnsafe: no URL could be served")
        }
    }

    var json: JSONValue {
        .object([
            "enabled": .bool(enabled), "securityKey": securityKey.map(JSONValue.string) ?? .null,
            "allowUnsafe": .bool(allowUnsafe), "loaderBase": loaderBase.map(JSONValue.string) ?? .null,
            "pathPrefix": .string(pathPrefix),
        ])
    }
}

/// Hex text to bytes.
enum Hex {
    /// The bytes of an even number of hex digits (either case), or nil.
    static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
